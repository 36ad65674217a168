# fish completion for fb-report, written by fb-report --generate-completion fish.
complete -c fb-report -l format -s f -x -a 'console csv json markdown long-csv hyperfine-json html' -d 'console, csv, json, markdown, long-csv'
complete -c fb-report -l details -d '3+ cases: every case\'s card and comparison card after the table'
complete -c fb-report -l color -x -a 'auto always never' -d 'console colour: auto, always or never'
complete -c fb-report -l samples -d 'json: include every raw sample'
complete -c fb-report -l generate-completion -x -a 'bash zsh fish' -d 'print the completion script for this shell'
complete -c fb-report -l help -s h -d 'show help'
complete -c fb-report -l version -s v -d 'print the version'
