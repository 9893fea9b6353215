package membound.calibrator.run;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import membound.vocabulary.BadInputException;
import membound.vocabulary.files.InputFiles;
import membound.vocabulary.files.Leftovers;

/**
 * One calibration (or validation, which measures the machine too) at a time on a machine: two at once measure each other (the tenants curve is how several
 * users share the bandwidth on purpose, and {@code --tenants} runs its streams inside one calibration). The
 * lock is an OS file lock on {@code <java.io.tmpdir>/membound-calibration.lock} (or the
 * {@code membound.calibrationLock} system property), released by the OS when the holder exits however it
 * exits, so a killed calibration never leaves a stale lock; the file says who holds it and since when.
 */
public final class CalibrationLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private CalibrationLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** The lock file every calibration of this machine uses. */
    public static Path file() {
        String configured = System.getProperty("membound.calibrationLock");
        return configured != null ? Path.of(configured)
                : Path.of(System.getProperty("java.io.tmpdir"), "membound-calibration.lock");
    }

    /**
     * Takes the lock of {@code file}; where another calibration holds it, waits for it when {@code wait} (saying
     * so on {@code progress}) and otherwise refuses in one line naming the holder.
     */
    public static CalibrationLock acquire(Path file, boolean wait, PrintWriter progress) {
        FileChannel channel = open(file);
        try {
            FileLock lock = tryLock(channel);
            if (lock == null) {
                String holder = holder(file);
                if (!wait) {
                    throw new BadInputException("calibration lock must be free (another calibration or validation is "
                            + "measuring this machine; two at once would measure each other): " + holder + ", lock=" + file
                            + " (wait for it with --wait)");
                }
                progress.println("waiting for the calibration lock: " + holder + ", lock=" + file);
                progress.flush();
                lock = channel.lock();
            }
            CalibrationLock taken = new CalibrationLock(channel, lock);
            taken.record();
            return taken;
        } catch (IOException e) {
            closeQuietly(channel);
            throw new BadInputException("calibration lock must be usable: lock=" + file + ", problem="
                    + Leftovers.problem(e), e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    private static FileChannel open(Path file) {
        try {
            boolean created = !Files.exists(file);
            FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            if (created) {
                try {
                    // Another user of the machine must be able to take it after us.
                    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
                } catch (IOException | UnsupportedOperationException e) {
                    // Best effort: without POSIX permissions every user shares the file anyway.
                }
            }
            return channel;
        } catch (IOException e) {
            throw new BadInputException("calibration lock must be a file this user can write: lock=" + file
                    + ", problem=" + Leftovers.problem(e) + " (another user's lock file? set -Dmembound.calibrationLock)",
                    e);
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null; // this process holds it already
        }
    }

    /** Who holds the lock, as its holder wrote it ({@code pid=..., since=...}). */
    private static String holder(Path file) {
        try {
            String text = InputFiles.readText(file, "calibration lock", InputFiles.Kind.CONFIG).strip();
            return text.isEmpty() ? "holder=unknown" : text;
        } catch (BadInputException e) {
            return "holder=unknown";
        }
    }

    private void record() throws IOException {
        String text = "pid=" + ProcessHandle.current().pid() + ", since="
                + Instant.now().truncatedTo(ChronoUnit.SECONDS) + "\n";
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), 0);
        channel.force(false);
    }

    @Override
    public void close() {
        try {
            channel.truncate(0);
            lock.release();
        } catch (IOException e) {
            // The lock goes with the channel below in any case.
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // Closing releases the lock; nothing else to do.
        }
    }
}
