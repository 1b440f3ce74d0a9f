# Homebrew formula for omp-sandbox (a tap formula: copy it into your tap's
# Formula/ directory, set the repository URL, and `brew install omp-sandbox`,
# or `brew install --HEAD omp-sandbox` to build the default branch).
#
# Builds from source with the system compiler (Apple clang).  Homebrew's
# bison is needed because macOS ships bison 2.3 and the grammar needs 3.8;
# GNU make 4 because macOS ships make 3.81.  The test suites that need no
# Linux kernel feature (`make check-portable`: unit, golden, check and
# explain/diff suites) run during the
# build.  The macOS launch path is unverified on a real Mac (see
# docs/security-model.md).
class OmpSandbox < Formula
  desc "Policy compiler and launcher that confine AI coding agents (Seatbelt)"
  homepage "https://github.com/OWNER/omp-sandbox"
  url "https://github.com/OWNER/omp-sandbox.git", tag: "v0.1.0"
  license "MIT"
  head "https://github.com/OWNER/omp-sandbox.git", branch: "main"

  depends_on "bison" => :build
  depends_on "criterion" => :build
  depends_on "flex" => :build
  depends_on "make" => :build
  depends_on :macos

  def install
    args = %W[
      CC=#{ENV.cc}
      BISON=#{Formula["bison"].opt_bin}/bison
      FLEX=#{Formula["flex"].opt_bin}/flex
    ]
    system "gmake", *args
    system "gmake", *args, "check-portable"
    system "gmake", *args, "install", "PREFIX=#{prefix}", "DATADIR=#{share}", "MANDIR=#{man}"
  end

  def caveats
    <<~EOS
      omp-sandboxed runs `omp` found on PATH.  Install omp where the sandbox
      can read it (Homebrew's bin directory works; ~/.bun/bin does not unless
      you add it to OMP_SANDBOX_EXTRA_READ).

      Example policies: #{opt_pkgshare}/examples
      Vim syntax for .sbx: add #{opt_share}/vim/vimfiles to 'runtimepath'.
    EOS
  end

  test do
    (testpath/"p.sbx").write <<~SBX
      default allow;
      deny write;
      allow write workspace tmpdir;
      deny read home;
      allow read workspace;
      allow stat-only exactly home;
    SBX
    system bin/"sbc", "--check", "-Werror", "p.sbx"
    profile = shell_output("#{bin}/sbc p.sbx")
    assert_match "(version 1)", profile
    assert_match "(deny file-read* (subpath (param \"HOME\")))", profile
    # Same input, same bytes.
    assert_equal profile, shell_output("#{bin}/sbc p.sbx")
    (testpath/"bad.sbx").write "default allow;\nallow write home;\n"
    shell_output("#{bin}/sbc --check bad.sbx 2>&1", 1)
    assert_match version.to_s, shell_output("#{bin}/sbrun --version")
    assert_match version.to_s, shell_output("#{bin}/omp-sandboxed --sandbox-version")
  end
end
