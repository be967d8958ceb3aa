import Dispatch
import Foundation
import Locking
import Synchronization

/// The terminal of the full-screen viewer: raw mode and the alternate screen on `start()`,
/// keys from stdin, resize and termination signals, and `restore()` that puts everything back
/// (idempotent, called on every way out).
package final class TerminalController: Sendable {
    private let input: Int32
    private let output: Int32
    private let saved = Lock<termios?>(nil)
    private let started = Atomic<Bool>(false)
    private let sources = Lock(SignalSources())

    /// A controller for `input` and `output` (stdin and stdout by default).
    package init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
    }

    /// Whether `descriptor` is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The size of the output terminal in columns and rows; 80x24 when it cannot be read.
    package func size() -> (width: Int, height: Int) {
        var window = winsize()
        guard ioctl(output, TerminalPlatform.windowSizeRequest, &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Enters raw mode (no echo, no line buffering, Ctrl-C as a key) and the alternate screen, hides the cursor.
    package func start() {
        started.store(true, ordering: .releasing)
        var attributes = termios()
        if tcgetattr(input, &attributes) == 0 {
            saved.withLock { $0 = attributes }
            var raw = attributes
            raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
            raw.c_oflag &= ~tcflag_t(OPOST)
            raw.c_cflag |= tcflag_t(CS8)
            _ = tcsetattr(input, TCSAFLUSH, &raw)
        }
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    /// Leaves the alternate screen, shows the cursor, restores the saved terminal modes. Idempotent.
    package func restore() {
        let attributes = saved.withLock { saved -> termios? in
            defer { saved = nil }
            return saved
        }
        sources.withLock { sources in
            sources.list.forEach { $0.cancel() }
            sources.list.removeAll()
        }
        if started.exchange(false, ordering: .acquiringAndReleasing) {
            write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        }
        if var attributes {
            _ = tcsetattr(input, TCSAFLUSH, &attributes)
        }
    }

    /// Draws `lines` from the top-left corner.
    package func draw(_ lines: [String]) {
        var frame = "\u{1B}[H"
        for (index, line) in lines.enumerated() {
            frame += "\u{1B}[\(index + 1);1H" + line + "\u{1B}[0m"
        }
        write(frame)
    }

    /// Writes `text` whole (retrying short writes).
    package func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { TerminalPlatform.write(output, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Reads stdin on a background thread, calling `onBytes` with each read; `onEnd` when it closes.
    package func readKeys(_ onBytes: @escaping @Sendable ([UInt8]) -> Void, onEnd: @escaping @Sendable () -> Void) {
        let input = self.input
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                onBytes(Array(buffer[0..<count]))
            }
            onEnd()
        }
        thread.name = "photo-feed.keys"
        thread.start()
    }

    /// Calls `handler` on `queue` for each of `signals` instead of their default action.
    package func onSignals(_ signals: [Int32], queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            let box = SignalSources(list: [source])
            sources.withLock { $0.list += box.list }
        }
    }
}

/// The signal sources a controller installed.
// @unchecked: the list is only touched inside the controller's `sources` mutex, and DispatchSource is thread-safe.
struct SignalSources: @unchecked Sendable {
    var list: [any DispatchSourceSignal] = []
}
