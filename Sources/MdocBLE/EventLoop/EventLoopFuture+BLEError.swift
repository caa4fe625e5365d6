import NIOCore

extension EventLoopFuture where Value: Sendable {
    /// Waits for the value; a failure that is not a `BLEError` (which the BLE modules never
    /// produce) becomes `linkClosed` with its description.
    package func bleValue() async throws(BLEError) -> Value {
        do {
            return try await get()
        } catch let error as BLEError {
            throw error
        } catch {
            throw BLEError(.linkClosed, "\(error)")
        }
    }
}

extension EventLoopPromise where Value: Sendable {
    /// Fails the promise with `error()` when it is still open after `timeout`; the timer ends
    /// with the promise.
    package func fail(after timeout: Duration, with error: @escaping @Sendable () -> BLEError) {
        let timer = futureResult.eventLoop.scheduleTask(in: TimeAmount(timeout)) { [self] in
            fail(error())
        }
        futureResult.whenComplete { _ in timer.cancel() }
    }

    /// Waits for the value; when the waiting task is cancelled first, the promise fails with
    /// `cancelled()`.
    package func value(cancelled: @escaping @Sendable () -> BLEError) async throws(BLEError) -> Value {
        let future = futureResult
        let result: Result<Value, BLEError> = await withTaskCancellationHandler {
            do throws(BLEError) {
                return .success(try await future.bleValue())
            } catch {
                return .failure(error)
            }
        } onCancel: {
            self.fail(cancelled())
        }
        return try result.get()
    }
}
