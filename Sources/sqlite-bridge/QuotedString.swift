/// The shape JSON's and Swift's string literals share: the text in double
/// quotes, `"` `\` LF CR and TAB escaped with a backslash, and each other
/// character that `escape` gives a spelling written that way (the control
/// characters, in each language's own form); everything else as it is.
func quotedString(_ text: String, escape: (Unicode.Scalar) -> String?) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    default:
      if let escaped = escape(scalar) {
        out += escaped
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
}
