/// The demo's rows, compiled into the program so that the default list is the same from
/// any directory and in any install (a file found relative to the executable or the working
/// directory went missing as soon as the binary was started from elsewhere, and the window
/// then showed placeholder rows without a word). `Assets/content/sample.txt` is the same
/// text, kept for the package and as an example of a content file; a test keeps the two
/// equal byte for byte.
public enum SampleRows {
    /// Where the rows came from, in words, for `--verbose` and `check-config`.
    public static let origin = "the built-in sample, Assets/content/sample.txt compiled in"

    /// The file's text exactly, its final newline included.
    public static let text = """
001 · Old town walls
002 · Coffee roaster
003 · Morning market
004 · Ferry timetable
005 · Street musician
006 · Tram line 4
007 · Night garden
008 · Flower stall
009 · Quiet library
010 · Rooftop cinema
011 · Clock tower
012 · River crossing
013 · Bike repair
014 · Paper lanterns
015 · North station
016 · City archive
017 · Cycling club
018 · Bakery queue
019 · Mountain trail
020 · Harbour lights
021 · Old town walls
022 · Coffee roaster
023 · Morning market
024 · Ferry timetable
025 · Street musician
026 · Tram line 4
027 · Night garden
028 · Flower stall
029 · Quiet library
030 · Rooftop cinema
031 · Clock tower
032 · River crossing
033 · Bike repair
034 · Paper lanterns
035 · North station
036 · City archive
037 · Cycling club
038 · Bakery queue
039 · Mountain trail
040 · Harbour lights
041 · Old town walls
042 · Coffee roaster
043 · Morning market
044 · Ferry timetable
045 · Street musician
046 · Tram line 4
047 · Night garden
048 · Flower stall
049 · Quiet library
050 · Rooftop cinema
051 · Clock tower
052 · River crossing
053 · Bike repair
054 · Paper lanterns
055 · North station
056 · City archive
057 · Cycling club
058 · Bakery queue
059 · Mountain trail
060 · Harbour lights
061 · Old town walls
062 · Coffee roaster
063 · Morning market
064 · Ferry timetable
065 · Street musician
066 · Tram line 4
067 · Night garden
068 · Flower stall
069 · Quiet library
070 · Rooftop cinema
071 · Clock tower
072 · River crossing
073 · Bike repair
074 · Paper lanterns
075 · North station
076 · City archive
077 · Cycling club
078 · Bakery queue
079 · Mountain trail
080 · Harbour lights
081 · Old town walls
082 · Coffee roaster
083 · Morning market
084 · Ferry timetable
085 · Street musician
086 · Tram line 4
087 · Night garden
088 · Flower stall
089 · Quiet library
090 · Rooftop cinema
091 · Clock tower
092 · River crossing
093 · Bike repair
094 · Paper lanterns
095 · North station
096 · City archive
097 · Cycling club
098 · Bakery queue
099 · Mountain trail
100 · Harbour lights

"""

    /// One row per line, as `ContentFile` reads the same text from a file.
    public static var rows: [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}
