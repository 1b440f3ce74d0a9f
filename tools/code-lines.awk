# code-lines.awk - print each line of a C file as "FILE:LINE: code", with
# comments and string and character literals blanked, so a check that
# reads the sources (tools/check-layers.sh, tools/check-conventions.sh)
# sees only code.  Literals keep their quotes: "" and ''.
{
	line = $0; out = ""
	while (line != "") {
		if (inc) {
			i = index(line, "*/")
			if (!i) { line = ""; break }
			line = substr(line, i + 2); inc = 0
			continue
		}
		i = index(line, "/*"); j = index(line, "//")
		if (j && (!i || j < i)) { out = out substr(line, 1, j - 1); break }
		if (!i) { out = out line; break }
		out = out substr(line, 1, i - 1); line = substr(line, i + 2); inc = 1
	}
	gsub(/"([^"\\]|\\.)*"/, "\"\"", out)
	gsub(/'([^'\\]|\\.)*'/, "''", out)
	print FILENAME ":" FNR ": " out
}
