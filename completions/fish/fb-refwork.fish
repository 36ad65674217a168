# fish completion for fb-refwork, written by fb-refwork --generate-completion fish.
complete -c fb-refwork -l iterations -s n -r -d 'operations to perform'
complete -c fb-refwork -l verbose -d 'print the work done'
complete -c fb-refwork -l report -d 'write "done N elapsed_ns=T" on the batch report channel'
complete -c fb-refwork -l generate-completion -x -a 'bash zsh fish' -d 'print the completion script for this shell'
complete -c fb-refwork -l help -s h -d 'show help'
complete -c fb-refwork -l version -s v -d 'print the version'
