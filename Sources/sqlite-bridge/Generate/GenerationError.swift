/// Why `generate` wrote nothing (exit status 1, the message on stderr):
/// a table asked for with `--table` that does not exist, or two names that
/// would give the same identifier (or one the generated code needs for
/// itself). Names are never changed to make them fit: rename in the schema,
/// or generate fewer tables.
struct GenerationError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
