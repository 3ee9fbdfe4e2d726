/// Documents for `TOMLCorpusTests`, each in the class TOML 1.0 puts it in: `valid`
/// (TOML within the reader's subset: the same values as tomllib), `beyond` (valid TOML
/// past the subset: tables, dotted keys, inline tables, dates, integers past 64 bits, a
/// NUL in a string, arrays nested past the limit; tomllib reads them, the reader refuses
/// them as not supported) and `invalid` (not TOML: both refuse). Raw strings, so a TOML
/// escape is written as it stands in a file (`\u0041`); `\#u{1B}` is a raw character.
enum TOMLCorpus {
    static let valid: [String] = [
        // Integers
        "a = 1", "a = -1", "a = +1", "a = 0", "a = -0", "a = +0", "a = 1_000_000", "a = 1_2_3",
        "a = 9223372036854775807", "a = -9223372036854775808", "a = 0xDEADBEEF", "a = 0xdead_beef",
        "a = 0x0001", "a = 0x7FFFFFFFFFFFFFFF", "a = 0o755", "a = 0o0_7", "a = 0b1101_0101", "a = 0b0",
        // Floats
        "a = 1.0", "a = -3.14159", "a = 5e+22", "a = 1e06", "a = -2E-2", "a = 6.626e-34",
        "a = 224_617.445_991_228", "a = 0.0", "a = -0.0", "a = +0.0", "a = inf", "a = +inf", "a = -inf",
        "a = nan", "a = +nan", "a = -nan", "a = 1e400", "a = 1e-400", "a = 0e0", "a = 3.0e2", "a = 1e-7",
        "a = 1e20", "a = 1.7976931348623157e308", "a = 5e-324", "a = 0.1", "a = 1E1_0", "a = 1_2.3_4e5_6",
        // Booleans
        "a = true", "a = false",
        // Basic strings
        #"a = "hello""#, #"a = """#, #"a = "tab\there""#, #"a = "quote \" backslash \\ ""#,
        #"a = "\b\f\n\r\t""#, #"a = "\u00E9\U0001F600""#, "a = \"raw tab\tinside\"", #"a = "ünïcödé ✓ 日本""#,
        #"a = "\u007F and \u0085 escaped""#, "a = \"raw C1 \u{85} and bidi \u{202E} characters\"", #"a = "\U0010FFFF""#,
        ##"a = "#""##, ##"a = "# not a comment" # a comment"##, #"a = "\\\\server\\share""#, #"a = "\u001B[31m""#,
        // Literal strings
        #"a = 'C:\Users\path'"#, #"a = '<\i\c*\s*>'"#, "a = ''", #"a = 'a "quoted" word'"#, #"a = '\u0041 stays'"#,
        // Multi-line basic strings
        "a = \"\"\"\nline one\nline two\"\"\"", "a = \"\"\"one \\\n   two\"\"\"",
        "a = \"\"\"\\\n\n  trimmed  \\\n  \"\"\"", "a = \"\"\"a\"\"\"\"", "a = \"\"\"a\"\"\"\"\"", "a = \"\"\"\"a\"\"\"",
        "a = \"\"\"\"\"\"", "a = \"\"\"\"\"\"\"", "a = \"\"\"\"\"\"\"\"", #"a = """Here are two quotation marks: "". Simple enough.""""#,
        #"a = """Here are fifteen quotation marks: ""\"""\"""\"""\"""\".""""#, "a = \"\"\"a\"\"b\"\"\"",
        "a = \"\"\"x\\ \t \n b\"\"\"", "a = \"\"\"tab\tand \\t\"\"\"", "a = \"\"\"\n\n\"\"\"", "a = \"\"\"\\\n\"\"\"",
        // Multi-line literal strings
        "a = '''\nraw\nlines'''", "a = '''That's still pointless''''", "a = ''''a'''", "a = '''a''b'''",
        #"a = '''I [dw]on't need \d{2} apples'''"#, "a = '''\n'''", "a = ''''''''", "a = '''\\\n'''",
        // Line ends
        "a = 1\r\nb = 2\r\n", "a = \"\"\"\r\nx\r\ny\"\"\"", "# comment\r\na = [\r\n1,\r\n]\r\n", "a = '''\r\nx\r\n'''",
        // Arrays
        "a = [1, 2, 3]", "a = []", "a = [ ]", "a = [1,]", "a = [\n 1,\n 2, # comment\n]", "a = [[1, 2], [\"a\", 'b']]",
        "a = [1, \"mixed\", 2.0, true]", "a = [[[[[]]]]]", "a = [\"a\", [ \"b\", [\"c\"]]]", "a = [\n# only a comment\n]",
        "a = [ \"\"\"multi\nline\"\"\", '''lit''' ]", "a = [ 1\n , 2 ]", "a = [ \"a\",\n\n\n \"b\" ]", "a = [ 1 , 2 ]",
        "a = [\"a\",\"b\"] # trailing", "a = [\n  \"sh\", # the shell\n  \"-c\",\n  \"echo x\",\n]",
        "a = [" + String(repeating: "[", count: 31) + String(repeating: "]", count: 31) + "]",
        // Keys
        "\"quoted key\" = 1", "'literal key' = 1", "\"\" = 1", "'' = 1", "\"a.b\" = 1", "\"ʎǝʞ\" = 1", #""\u0041" = 1"#,
        "1234 = \"a numeric bare key\"", "bare-key_1 = 1", "-- = 1", "_ = 1", "a=1", "\ta\t=\t1\t", "a =1", "a= 1",
        "\"é\" = 1\n\"e\u{301}\" = 2", "\"a\" = 1\n'b' = 2\nc = 3", #""\"" = 1"#, "'\"' = 1",
        // Comments and blank lines
        "# just a comment", "", "\n\n\n", "a = 1 # comment", "# ünïcödé ✓\na = 1", "a = 1\n# c\n\n   \n\tb = 2",
        "a = 1", "a = 1\n", "#\na=1#\n#", "a = 1 #\t tab in a comment", "a = \"x\" # \"quotes\" and 'apostrophes'",
        // The program's own settings, as a kiosk would write them
        "threshold = 100\nflash = \"on\"\nrefresh-duration = \"1.5s\"\nrefresh-command = [\"sh\", \"-c\", \"echo x\"]",
        "size = \"480x800\"\nrotate = 90\nscale = 1.5\nreport-keep = 30\n",
    ]

    static let beyond: [String] = [
        "[table]", "[table]\na = 1", "[[array]]\na = 1", "a = 1\n[b]\nc = 2", "[a.b.c]", "[ x ]", "[\"quoted\"]",
        "a.b = 1", "a . b = 1", "\"a\".b = 1", "a.\"b.c\" = 1",
        "a = {}", "a = { b = 1 }", "a = [ { b = 1 } ]", "a = { b.c = 1 }", "a = { b = [1, 2] }",
        "a = 1979-05-27", "a = 1979-05-27T07:32:00Z", "a = 1979-05-27 07:32:00", "a = 07:32:00",
        "a = 1979-05-27T00:32:00.999999-07:00", "a = 1979-05-27T07:32:00", "a = [1979-05-27]",
        "a = 0xFFFFFFFFFFFFFFFF", "a = 9223372036854775808", "a = -9223372036854775809",
        "a = 0b" + String(repeating: "1", count: 64), "a = 0o1777777777777777777777",
        #"a = "\u0000""#, #"a = ["x\u0000y"]"#, #""\u0000" = 1"#, #"a = """\u0000""""#, #"a = "\U00000000""#,
        "a = [" + String(repeating: "[", count: 32) + String(repeating: "]", count: 32) + "]",
    ]

    static let invalid: [String] = [
        // What issue 41 found accepted
        #"a = "\e""#, "a = \"bell \u{7}\"", "a = \"esc \u{1B}[31m\"", "# comment \u{1B}[2J", "# comment \u{7F}",
        "a = 1\rb = 2", "a = 1\r", "a = \"\"\"a\"\"\"\"\"\"", "a = '''a''''''", "a = \"\"\"a\"\"\"\"\"\"\"",
        // Raw control characters elsewhere
        "a = \"vt \u{0B}\"", "# ff \u{0C}", "a = \"\"\"a\u{7}b\"\"\"", "a = '''a\u{1B}b'''", "a = 'a\u{1B}b'",
        "a = \"\"\"a\rb\"\"\"", "a = \"del \u{7F}\"", "a = \"us \u{1F}\"", "a = 1 # \u{0}", "a = \"\u{0}\"",
        "a = 1\u{1B}", "\u{8}a = 1",
        // Values that are not TOML's
        "a = maybe", "a = 050", "a = 0_1", "a = 1__0", "a = _1", "a = 1_", "a = 0x", "a = 0X1F", "a = +0x1",
        "a = -0x1", "a = 0b2", "a = 0o8", "a = 0xG", "a = 0b", "a = 1.", "a = .1", "a = 1e", "a = 1.e5",
        "a = 03.14", "a = Inf", "a = NaN", "a = infinity", "a = True", "a = 0.1.2", "a = 1e2.3", "a = --1",
        "a = -", "a = +", "a = 1.0_", "a = 1_.0", "a = 1._0", "a = 1e_1", "a = truefalse", "a = tru",
        "a = 1_000_", "a = 1e+", "a = +-1",
        // Strings
        "a = \"unterminated", "a = 'unterminated", "a = \"multi\nline\"", "a = \"\"\"never ends", "a = '''never ends",
        "a = 'a\nb'", #"a = "\ud800""#, #"a = "\U00110000""#, #"a = "\u12""#, #"a = "\x41""#, #"a = "\ ""#,
        "a = \"\"\"\\  b\"\"\"", #"a = "\"#, #"a = """ \q """"#, "a = 'it''s'", #"a = "\U0000004""#,
        // Arrays
        "a = [1, 2", "a = [1 2]", "a = [,]", "a = [1,,2]", "a = [1\n2]", "a = ]", "a = [1]]", "a = [1],",
        "a = [", "a = [\"a\" \"b\"]",
        // Lines and keys
        "a =", "a = # comment", "= 1", "a b = 1", "a = 1 b = 2", "a = 1\na = 2", "a = 1\n\"a\" = 2", "'a' = 1\na = 2",
        "a = 1 2", "\"\"\"key\"\"\" = 1", "ü = 1", "a = 1\n\n= 2", "a = \"a\" \"b\"", "a =\n1", "a = \"x\" y",
        "a = \"\"\"a\"\"\" b", "a = 1,", "\u{A0}a = 1", "a = 1 # ok\nb", "a", "\"a = 1", "a = {", "a = \"\"\"\"\"\"\"\"\"",
        "\u{FEFF}a = 1", "a : 1", "a == 1",
    ]

    /// Byte-level documents: text that is not UTF-8.
    static let invalidBytes: [[UInt8]] = [
        Array("a = \"".utf8) + [0xFF] + Array("\"".utf8),
        Array("a = \"".utf8) + [0xED, 0xA0, 0x80] + Array("\"".utf8),   // a surrogate, encoded
        Array("# ".utf8) + [0xC0, 0xAF],                                  // an overlong '/'
        Array("a = 1\n# ".utf8) + [0x80],
    ]
}
