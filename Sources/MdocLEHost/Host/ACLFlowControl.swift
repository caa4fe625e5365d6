import MdocBLE

/// Host-to-controller ACL flow control (Bluetooth Core Vol 4 Part E 4.1.1): the controller
/// has a fixed number of ACL data buffers; the host sends a packet only while one is free and
/// gets buffers back from Number Of Completed Packets events, per connection handle. When a
/// link ends, the controller flushes its packets and the host takes their buffers back
/// (4.3: after Disconnection Complete they count as completed).
struct ACLFlowControl: Sendable {
    /// How many ACL data packets the controller buffers (Total_Num_LE_ACL_Data_Packets).
    let bufferCount: Int
    /// How many buffers are free now.
    private(set) var available: Int
    /// Packets sent and not yet completed, per connection handle.
    private(set) var outstanding: [UInt16: Int] = [:]

    /// Flow control over `bufferCount` buffers, all free.
    init(bufferCount: Int) {
        self.bufferCount = bufferCount
        available = bufferCount
    }

    /// Takes a buffer for a packet on `handle`; false when none is free.
    mutating func take(for handle: UInt16) -> Bool {
        guard available > 0 else { return false }
        available -= 1
        outstanding[handle, default: 0] += 1
        return true
    }

    /// The controller completed `count` packets of `handle`: their buffers are free again.
    /// A count above what is outstanding on the handle (a controller error) frees only what
    /// was outstanding, so the host never believes in more buffers than exist. Returns how
    /// many were freed.
    @discardableResult
    mutating func complete(_ count: Int, for handle: UInt16) -> Int {
        let freed = min(max(count, 0), outstanding[handle] ?? 0)
        release(freed, from: handle)
        return freed
    }

    /// The link `handle` ended: every packet still outstanding on it is flushed, and its
    /// buffers are free. Returns how many were freed.
    @discardableResult
    mutating func disconnected(_ handle: UInt16) -> Int {
        let freed = outstanding[handle] ?? 0
        release(freed, from: handle)
        return freed
    }

    private mutating func release(_ count: Int, from handle: UInt16) {
        guard count > 0 else { return }
        let left = (outstanding[handle] ?? 0) - count
        outstanding[handle] = left > 0 ? left : nil
        available = min(bufferCount, available + count)
    }
}
