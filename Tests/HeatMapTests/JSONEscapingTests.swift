import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The one JSON string rule: known answers for both contexts, and a
/// round trip through Foundation's JSON parser over generated text.
@Suite struct JSONEscapingTests {
    @Test func plainJSONEscapesOnlyWhatJSONNeeds() {
        #expect(JSONEscaping.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONEscaping.quoted("\n\r\t\u{1}\u{1f}") == #""\n\r\t\u0001\u001f""#)
        // Markup characters, DEL and line separators stay as they are.
        #expect(JSONEscaping.quoted("<&>\u{7f}\u{2028}é") == "\"<&>\u{7f}\u{2028}é\"")
    }

    @Test func scriptContextHidesMarkupAndSeparators() {
        #expect(JSONEscaping.quoted("</script><!--&", for: .script) == #""\u003c/script\u003e\u003c!--\u0026""#)
        #expect(JSONEscaping.quoted("\u{7f}\u{2028}\u{2029}", for: .script) == #""\u007f\u2028\u2029""#)
        #expect(JSONEscaping.quoted("\u{FFFE}é😀", for: .script) == "\"\u{FFFD}é😀\"")
    }

    @Test func bytesAndStringAgree() {
        var text = JSONText()
        text.append(quoted: "tab\there \"q\" 😀")
        #expect(text.string == JSONEscaping.quoted("tab\there \"q\" 😀"))
    }

    @Test func generatedTextRoundTrips() throws {
        var rng = SplitMix(seed: 18)
        let pool: [Unicode.Scalar] =
            (0..<0x80).compactMap(Unicode.Scalar.init)
            + ["é", "\u{2028}", "\u{2029}", "\u{FFFD}", "😀", "中"]
        for _ in 0..<300 {
            var s = String.UnicodeScalarView()
            for _ in 0..<Int(rng.next() % 24) { s.append(pool[Int(rng.next() % UInt64(pool.count))]) }
            let original = String(s)
            for context in [JSONEscaping.Context.json, .script] {
                let literal = JSONEscaping.quoted(original, for: context)
                let parsed = try JSONSerialization.jsonObject(with: Data("[\(literal)]".utf8)) as? [String]
                #expect(parsed == [original], "\(context): \(literal)")
                if context == .script { #expect(!literal.contains("<") && !literal.contains("&")) }
            }
        }
    }
}
