import EventLoopIO

extension ExchangeMachine {
    /// How the body of an attempt starts.
    enum BodyStart: Equatable, Sendable {
        /// Opens the file or stream off the loop; the outcome goes to `bodyOpened` with `generation`.
        case open(generation: Int)
        /// Makes the head (framed by `headPrepared`) and writes it.
        case sendHead
    }

    /// What follows an output all written.
    enum NextPiece: Equatable, Sendable {
        /// Reads the next piece of a body in memory now; it goes to `pieceRead`.
        case readNow(generation: Int)
        /// Reads the next piece off the loop, watching the socket for an early answer only; it
        /// goes to `pieceRead` with `generation`.
        case readOffLoop(generation: Int)
        /// The whole request is out: the socket is watched for the answer only.
        case awaitAnswer
    }

    /// Where the body bytes received so far go.
    enum BodyBytes: Equatable, Sendable {
        /// Dropped: the body of a redirect that is followed, which never goes to the download file.
        case drop
        /// To the download file, made first when `create`.
        case writeToFile(create: Bool)
    }

    /// What becomes of the connection when the exchange lets go of it.
    enum Disposal: Equatable, Sendable {
        /// The exchange holds no slot (nothing to give back).
        case none
        /// Back to the pool, kept alive, with its slot.
        case pool
        /// Closed; its slot goes back to the pool.
        case close
    }

    /// How the exchange (or one hop of it) ends.
    enum Outcome: Equatable, Sendable {
        /// Reports the response; `decodesBody` when its body is in memory (not in a download file).
        case deliver(decodesBody: Bool)
        /// Sends the redirect's request (`request` is already the next one): read its target, then `begin`.
        case followRedirect
        /// Reports the failure with whatever head arrived (a refused redirect's response included).
        case fail(ExchangeFailure)
        /// Reports nothing (cancelled).
        case tearDown
    }

    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// Nothing.
        case none
        /// Asks the pool for a connection to `key`, queuing when none is free; with `armWaitTimer`
        /// the connect timeout bounds the wait (when no overall deadline is set).
        case acquire(ConnectionPoolKey, armWaitTimer: Bool)
        /// Gives a lease that came too late back to the pool unused.
        case returnLease
        /// Closes the connection in use (its server closed it, or it went stale), giving its slot
        /// back, and asks the pool for a new connection (no idle one), ahead of the requests sent
        /// later; with `armWaitTimer` the connect timeout bounds the wait.
        case reconnect(armWaitTimer: Bool)
        /// Sends on the leased connection (an `https` one secured by the pool's opener), arming the idle timer, then starts
        /// the body as `body` says.
        case send(body: BodyStart)
        /// The body's reader was opened for an attempt given up: close it off the loop.
        case discardReader
        /// Makes the head and writes it (the body's file or stream is open).
        case sendHead
        /// Writes this framed piece of the body.
        case write([UInt8])
        /// Counts `sent` body bytes out (when some were), then goes on as `next` says.
        case outputWritten(progress: Int64?, next: NextPiece)
        /// Reads what the kernel holds after a failed write (an early answer, such as a 413).
        case readAfterFailedWrite
        /// Arms the idle timer again: bytes moved since it was armed.
        case rearmIdleTimer
        /// Puts the body bytes received so far where `destination` says.
        case bodyBytes(BodyBytes)
        /// Leaves the connection unread while the body's sink catches up (the peer is not idle meanwhile).
        case pauseReading
        /// Reads the connection again: the sink caught up (bytes count as moved now).
        case resumeReading
        /// Lets go of the connection (and the queue, when `leaveQueue`) as `disposal` says, stops
        /// the exchange's timers and readers, then ends as `outcome` says.
        case finish(leaveQueue: Bool, disposal: Disposal, outcome: Outcome)
    }
}
