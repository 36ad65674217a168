# fish completion for fb-history, written by fb-history --generate-completion fish.
complete -c fb-history -l db -r -d 'the store: a SQLite file'
complete -c fb-history -l tag -r -d 'add: KEY=VALUE recorded with every run added'
complete -c fb-history -l generate-completion -x -a 'bash zsh fish' -d 'print the completion script for this shell'
complete -c fb-history -l help -s h -d 'show help'
complete -c fb-history -l version -s v -d 'print the version'
