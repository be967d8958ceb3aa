import Foundation
import PhotoFeedViewerCore

exit(PhotoFeedCommand.run(arguments: Array(CommandLine.arguments.dropFirst()),
                          environment: ProcessInfo.processInfo.environment))
