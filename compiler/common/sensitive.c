/* sensitive.c - the sensitive home locations and their matcher
 * (sensitive.h).  docs/checks.md gives the reason for every entry; keep the
 * two in step.  */
#include "compiler/common/sensitive.h"

#include "compiler/common/path.h"

/* Relative to HOME.  The first 14 are the original wrapper's list.  */
static const sb_sensitive_entry entries[] = {
	/* credentials */
	{ ".ssh", "SSH keys; its config runs code via ProxyCommand" },
	{ ".aws", "AWS credentials; credential_process runs code" },
	{ ".gnupg", "GnuPG private keys" },
	{ ".netrc", "plain-text passwords for curl, git, ftp" },
	{ ".netrc.gpg", "encrypted machine passwords" },
	/* macOS user data */
	{ "Library/Keychains", "macOS keychains" },
	{ "Library/LaunchAgents", "launchd agents: code started at every login" },
	{ "Library/Application Support/Google", "Chrome profiles: cookies, saved passwords" },
	{ "Library/Safari", "Safari history, cookies and data" },
	/* shell start-up */
	{ ".bashrc", "bash start-up file: runs code in every new shell" },
	{ ".bash_profile", "bash login file: runs code at login" },
	{ ".zshrc", "zsh start-up file: runs code in every new shell" },
	{ ".zprofile", "zsh login file: runs code at login" },
	{ ".profile", "sh login file: runs code at login" },
	/* added: more shell start-up and exit files */
	{ ".bash_login", "bash login file: runs code at login" },
	{ ".bash_logout", "bash logout file: runs code at logout" },
	{ ".zshenv", "zsh file read by every zsh, even scripts: runs code" },
	{ ".zlogin", "zsh login file: runs code at login" },
	{ ".zlogout", "zsh logout file: runs code at logout" },
	{ ".config/fish", "fish start-up files and functions: run code" },
	/* added: tool configuration that runs code or holds tokens */
	{ ".gitconfig", "git config: hooksPath, fsmonitor, aliases and credential helpers run code" },
	{ ".git-credentials", "plain-text git tokens" },
	{ ".config/git", "git config (as .gitconfig) and its credentials file" },
	{ ".config/gh", "GitHub CLI tokens" },
	{ ".docker", "Docker registry credentials and CLI plugins" },
	{ ".kube", "Kubernetes cluster credentials; exec plugins run code" },
	{ ".npmrc", "npm registry tokens" },
	{ ".pypirc", "PyPI upload tokens" },
	{ ".cargo/credentials", "crates.io token (old name)" },
	{ ".cargo/credentials.toml", "crates.io token" },
	{ ".config/gcloud", "Google Cloud credentials" },
	{ ".azure", "Azure CLI tokens" },
	{ ".env", "home-wide secrets file that omp and others load" },
	{ ".password-store", "pass(1) password store" },
	{ ".local/share/keyrings", "GNOME keyrings" },
	{ ".mozilla", "Firefox profiles: cookies, saved passwords" },
	{ ".config/google-chrome", "Chrome profiles on Linux" },
	{ ".config/chromium", "Chromium profiles on Linux" },
	{ "Library/Cookies", "macOS cookie stores" },
	{ "Library/Application Support/Firefox", "Firefox profiles on macOS" },
	{ "Library/Mail", "macOS Mail data" },
	{ "Library/Messages", "macOS Messages history" },
};

static const sb_sensitive_entry dotdot_entry = {
	"..", "a '..' component hides where the path leads"
};
static const sb_sensitive_entry own_file_entry = {
	"(policy, profile or launcher)",
	"the sandbox's own policy, profile or launcher: whoever changes it changes the sandbox"
};

const sb_sensitive_entry *sb_sensitive_list(size_t *n)
{
	*n = sizeof entries / sizeof *entries;
	return entries;
}

const sb_sensitive_entry *sb_sensitive_match_rel(const char *rel, bool node_only)
{
	if (sb_path_has_dotdot(rel))
		return &dotdot_entry;
	const sb_sensitive_entry *ancestor_of = NULL;
	for (size_t i = 0; i < sizeof entries / sizeof *entries; i++) {
		switch (sbx_path_relation(rel, entries[i].rel, true)) {
		case SBX_PATH_EQUAL:
		case SBX_PATH_INSIDE:
			return &entries[i];
		case SBX_PATH_ABOVE:
			if (!node_only && !ancestor_of)
				ancestor_of = &entries[i];
			break;
		case SBX_PATH_UNRELATED:
			break;
		}
	}
	return ancestor_of;
}

const sb_sensitive_entry *sb_sensitive_match(const char *p, const char *home,
					     const char *const *extra_abs, size_t nextra)
{
	if (sb_path_has_dotdot(p))
		return &dotdot_entry;
	for (size_t i = 0; i < nextra; i++)
		if (extra_abs[i] && sbx_path_relation(p, extra_abs[i], true) != SBX_PATH_UNRELATED)
			return &own_file_entry;
	if (!home || !*home)
		return NULL;
	switch (sbx_path_relation(p, home, true)) {
	case SBX_PATH_EQUAL:
	case SBX_PATH_INSIDE:
		return sb_sensitive_match_rel(sbx_path_below(p, home, true), false);
	case SBX_PATH_ABOVE:
		return &entries[0];
	case SBX_PATH_UNRELATED:
		break;
	}
	return NULL;
}
