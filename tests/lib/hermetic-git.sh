# tests/lib/hermetic-git.sh, sourced: git run by a suite itself (outside any
# sandbox, to make or inspect a repository) reads no configuration of this
# machine or its user: not /etc/gitconfig, not ~/.gitconfig or
# ~/.config/git/config, which on a developer's machine hold an identity,
# includes, core.hooksPath hooks that refuse commits, commit.gpgsign
# (tests/lib/hostile-host.sh).  Sandboxed runs get their own HOME anyway.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT
