# fish completion for fb-import, written by fb-import --generate-completion fish.
complete -c fb-import -l name -r -d 'name of the next command, in the file\'s order'
complete -c fb-import -l tag -r -d 'KEY=VALUE recorded in the run\'s fingerprint'
complete -c fb-import -l this-host -d 'record this machine\'s host fingerprint: say so only when the file was made here'
complete -c fb-import -l started -r -d 'the run\'s start time, RFC 3339'
complete -c fb-import -l generate-completion -x -a 'bash zsh fish' -d 'print the completion script for this shell'
complete -c fb-import -l help -s h -d 'show help'
complete -c fb-import -l version -s v -d 'print the version'
