// Recording messages (PROTOCOL §6 "Recording", DESIGN.md#recording).

extension DeviceMessage {
    /// Starts recording one monitor.
    public struct RecordStart: MessageBody {
        public static let type = "recordStart"
        public var displayId: Int
        /// 30 or 60 (others go to the nearer; absent → 30).
        public var fps: Int
        /// The video's long side; absent → the monitor's own size.
        public var maxSide: Int?
        /// The longest the recording may run, in seconds of the file (absent → 2 hours); it stops by itself then.
        public var maxSeconds: Int?

        /// A recording nobody stops is stopped after this long (8 GB an hour at most, speakers silent meanwhile).
        public static let defaultMaxSeconds = 7200
        /// The longest a recording may be asked to run: a day.
        public static let longestMaxSeconds = 86400

        /// `maxSeconds` as the host applies it: the default when absent, within 1 s … a day.
        public static func limit(_ asked: Int?) -> Int { min(max(asked ?? defaultMaxSeconds, 1), longestMaxSeconds) }

        public init(displayId: Int, fps: Int = 30, maxSide: Int? = nil, maxSeconds: Int? = nil) {
            self.displayId = displayId
            self.fps = fps
            self.maxSide = maxSide
            self.maxSeconds = maxSeconds
        }

        private enum CodingKeys: String, CodingKey { case displayId, fps, maxSide, maxSeconds }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            displayId = try fields.decode(Int.self, forKey: .displayId)
            fps = try fields.decode(.fps, default: 30)
            maxSide = try fields.decodeIfPresent(Int.self, forKey: .maxSide)
            maxSeconds = try fields.decodeIfPresent(Int.self, forKey: .maxSeconds)
        }
    }

    /// Pauses the recording.
    public struct RecordPause: MessageBody {
        public static let type = "recordPause"
        public init() {}
    }

    /// Resumes a paused recording.
    public struct RecordResume: MessageBody {
        public static let type = "recordResume"
        public init() {}
    }

    /// Stops and saves the recording.
    public struct RecordStop: MessageBody {
        public static let type = "recordStop"
        public init() {}
    }

    /// Asks for the saved recordings.
    public struct ListRecordings: MessageBody {
        public static let type = "listRecordings"
        public init() {}
    }

    /// Asks for one chunk of a saved recording's bytes.
    public struct FetchRecording: MessageBody {
        public static let type = "fetchRecording"
        /// A `name` from `recordings`.
        public var name: String
        /// The first byte wanted (a fetch resumes from any offset).
        public var offset: Int

        public init(name: String, offset: Int) {
            self.name = name
            self.offset = offset
        }
    }

    /// Deletes a saved recording (not the one being recorded); answered with the new `recordings` list.
    public struct DeleteRecording: MessageBody {
        public static let type = "deleteRecording"
        /// A `name` from `recordings`.
        public var name: String

        public init(name: String) { self.name = name }
    }
}

extension HostMessage {
    /// The recording's state, sent to every authorized device at each change and after `authorized`.
    public struct RecordState: MessageBody {
        public static let type = "recordState"
        public enum State: String, Codable, Hashable, Sendable, CaseIterable {
            case idle, recording, paused
        }
        /// Why the last recording ended (only with `idle` after a recording).
        public enum StopReason: String, Codable, Hashable, Sendable, CaseIterable {
            /// `recordStop` or `touchdeck record stop`.
            case requested
            /// The disk filled up; the file holds what came before.
            case diskFull
            /// The capture or an encoder failed.
            case error
            /// The host is stopping.
            case ended
            /// It reached its length limit (`recordStart.maxSeconds`, 2 hours unless asked otherwise).
            case maxLength
        }
        public var state: State
        /// The monitor being recorded (not with `idle`).
        public var displayId: Int?
        public var fps: Int?
        /// Milliseconds recorded so far, pauses left out (while recording it grows from here).
        public var elapsedMs: Int
        /// The file's name (the one being written, or with `idle` the one just saved).
        public var name: String?
        public var reason: StopReason?

        public init(
            state: State, displayId: Int? = nil, fps: Int? = nil, elapsedMs: Int = 0, name: String? = nil,
            reason: StopReason? = nil
        ) {
            self.state = state
            self.displayId = displayId
            self.fps = fps
            self.elapsedMs = elapsedMs
            self.name = name
            self.reason = reason
        }
    }

    /// A `recordStart` (or pause/resume/stop) that could not be done.
    public struct RecordDenied: MessageBody {
        public static let type = "recordDenied"
        public enum Reason: String, Codable, Hashable, Sendable, CaseIterable {
            /// This device may not view (hence record) the screen.
            case notAllowed
            /// A recording is already running (`recordStart`), or none is (`recordPause`…).
            case alreadyRecording, notRecording
            /// No desktop to capture, or no monitor with that id.
            case noDisplay
            /// The file or the encoder could not be opened.
            case error
        }
        public var reason: Reason
        public var message: String
        public init(reason: Reason, message: String) {
            self.reason = reason
            self.message = message
        }
    }

    /// One saved recording.
    public struct RecordingEntry: Codable, Hashable, Sendable {
        public var name: String
        /// Bytes.
        public var size: Int
        public var durationMs: Int
        /// A `data:` URL of a small JPEG, or nil.
        public var thumbnail: String?
        /// True for the file being recorded now (it cannot be fetched until it ends); absent otherwise.
        public var recording: Bool?

        public init(name: String, size: Int, durationMs: Int, thumbnail: String? = nil, recording: Bool? = nil) {
            self.name = name
            self.size = size
            self.durationMs = durationMs
            self.thumbnail = thumbnail
            self.recording = recording
        }
    }

    /// The saved recordings, newest first.
    public struct Recordings: MessageBody {
        public static let type = "recordings"
        public var recordings: [RecordingEntry]
        public init(recordings: [RecordingEntry]) { self.recordings = recordings }
    }

    /// One chunk of a recording's bytes.
    public struct RecordingChunk: MessageBody {
        public static let type = "recordingChunk"
        public var name: String
        public var offset: Int
        /// The whole file's size and SHA-256 (lowercase hex), the same in every chunk.
        public var size: Int
        public var sha256: String
        /// The chunk's bytes, base64; empty at or past the end.
        public var data: String

        public init(name: String, offset: Int, size: Int, sha256: String, data: String) {
            self.name = name
            self.offset = offset
            self.size = size
            self.sha256 = sha256
            self.data = data
        }
    }
}
