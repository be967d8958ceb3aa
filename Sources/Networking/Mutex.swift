import Reactive

/// The package's lock: `Synchronization.Mutex`, made visible to ThreadSanitizer.
typealias Mutex<Value: ~Copyable> = SanitizerAwareMutex<Value>
