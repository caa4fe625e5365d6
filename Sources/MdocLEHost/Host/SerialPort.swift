import Glibc
import MdocBLE
import MdocPosix

/// Opens the serial line of `hci:serial:DEV[,BAUD][,rtscts]` for H4: raw mode (no echo, no
/// line discipline, 8 data bits, no parity, 1 stop bit), the baud rate, optional RTS/CTS flow
/// control (Bluetooth Core Vol 4 Part A 2: the UART transport).
enum SerialPort {
    /// The rates termios names (termios(3)), as Linux supports them.
    static let baudRates: [Int: speed_t] = [
        9_600: speed_t(B9600), 19_200: speed_t(B19200), 38_400: speed_t(B38400), 57_600: speed_t(B57600),
        115_200: speed_t(B115200), 230_400: speed_t(B230400), 460_800: speed_t(B460800), 500_000: speed_t(B500000),
        576_000: speed_t(B576000), 921_600: speed_t(B921600), 1_000_000: speed_t(B1000000),
        1_152_000: speed_t(B1152000), 1_500_000: speed_t(B1500000), 2_000_000: speed_t(B2000000),
        2_500_000: speed_t(B2500000), 3_000_000: speed_t(B3000000), 3_500_000: speed_t(B3500000),
        4_000_000: speed_t(B4000000),
    ]

    /// An open, non-blocking, close-on-exec descriptor of `path` configured for H4.
    static func open(path: String, baudRate: Int, flowControl: Bool) throws(BLEError) -> Int32 {
        guard let speed = baudRates[baudRate] else {
            let rates = baudRates.keys.sorted().map(String.init).joined(separator: ", ")
            throw BLEError(.invalidTransport, "hci:serial:\(path): \(baudRate) baud is not a rate termios supports (\(rates))")
        }
        let opened = SystemCall.make { Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) }
        guard case .success(let fd) = opened else {
            let code = opened.failureCode
            switch code {
            case ENOENT, ENODEV, ENXIO:
                throw BLEError(.transportUnavailable, "hci:serial:\(path): no such device; is the dongle plugged in (see `ls /dev/ttyACM* /dev/ttyUSB*`)?")
            case EACCES, EPERM:
                throw BLEError(.transportUnavailable,
                               "hci:serial:\(path): permission denied; add yourself to the device's group (often `sudo usermod -aG dialout $USER`, then log in again)")
            case EBUSY:
                throw BLEError(.transportUnavailable, "hci:serial:\(path): the device is in use by another program")
            default:
                throw SystemCall.failure("open", code, "opening the serial device \(path)")
            }
        }
        var settings = termios()
        if case .failure(let error) = SystemCall.make({ tcgetattr(fd, &settings) }) {
            let code = error.code
            Glibc.close(fd)
            if code == ENOTTY {
                throw BLEError(.transportUnavailable, "hci:serial:\(path): not a serial device (tcgetattr: not a terminal)")
            }
            throw SystemCall.failure("tcgetattr", code, "reading the settings of \(path)")
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        if flowControl {
            settings.c_cflag |= tcflag_t(CRTSCTS)
        } else {
            settings.c_cflag &= ~tcflag_t(CRTSCTS)
        }
        do {
            try SystemCall.make("cfsetispeed", "setting \(path) to \(baudRate) baud") { cfsetispeed(&settings, speed) }
            try SystemCall.make("cfsetospeed", "setting \(path) to \(baudRate) baud") { cfsetospeed(&settings, speed) }
            try SystemCall.make("tcsetattr", "setting \(path) to raw mode at \(baudRate) baud") { tcsetattr(fd, TCSANOW, &settings) }
        } catch {
            Glibc.close(fd)
            throw error
        }
        _ = SystemCall.make { tcflush(fd, TCIOFLUSH) }
        return fd
    }
}
