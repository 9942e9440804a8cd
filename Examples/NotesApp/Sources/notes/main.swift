// The `notes` command: NotesCommandLine does everything; this prints its
// output and exits with its status.
import Foundation
import NotesKit

let result = NotesCommandLine.run(
  Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
FileHandle.standardOutput.write(Data(result.output.utf8))
FileHandle.standardError.write(Data(result.errorOutput.utf8))
exit(result.exitCode)
