// sqlite-bridge: the command-line face of SQLiteBridge.
import Foundation

exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
