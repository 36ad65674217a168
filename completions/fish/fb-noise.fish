# fish completion for fb-noise, written by fb-noise --generate-completion fish.
complete -c fb-noise -l min-runs -r -d 'invocations at least'
complete -c fb-noise -l max-runs -r -d 'invocations at most'
complete -c fb-noise -l tolerance -r -d 'converged when no metric\'s estimate moved by more than this percentage of its...'
complete -c fb-noise -l keep -r -d 'save every invocation\'s stream'
complete -c fb-noise -l quiet -s q -d 'no progress lines on stderr, only warnings and errors'
complete -c fb-noise -l generate-completion -x -a 'bash zsh fish' -d 'print the completion script for this shell'
complete -c fb-noise -l help -s h -d 'show help'
complete -c fb-noise -l version -s v -d 'print the version'
