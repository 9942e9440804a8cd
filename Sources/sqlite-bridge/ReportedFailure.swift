/// A command failed and has already said why (the problems `check` found,
/// the statements a piped shell script could not run): exit status 1 with
/// nothing more printed.
struct ReportedFailure: Error {}
