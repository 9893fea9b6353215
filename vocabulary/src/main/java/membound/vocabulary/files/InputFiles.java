package membound.vocabulary.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

import membound.vocabulary.BadInputException;

/**
 * The one way membound reads a file a user names: a profile, a config.json, another tool's output, a recorded
 * validation. Only a regular file is opened (a FIFO, a device, a directory or a socket is refused by its type
 * before anything opens it, so nothing blocks and nothing streams forever), its size is checked against the
 * limit of its kind before a byte is read, and text must be UTF-8. Every refusal is one
 * {@link BadInputException} line naming the kind of file, the rule and the file.
 */
public final class InputFiles {

    /** A kind of input file and the most bytes one may have: far above any real one, far below the heap. */
    public enum Kind {
        /** A hardware profile: a few hundred KiB with every sweep; JMH's raw results beside it are tool output. */
        PROFILE(64L << 20),
        /** A Hugging Face config.json: a few KiB. */
        CONFIG(4L << 20),
        /** Another tool's output (STREAM, LIKWID, nvbandwidth, NCCL tests, JMH) or a recorded validation. */
        TOOL_OUTPUT(64L << 20),
        /** A profiler trace (PyTorch's Kineto JSON, an Nsight Systems export): read as a stream, never whole. */
        TRACE(1L << 40);

        private final long maxBytes;

        Kind(long maxBytes) {
            this.maxBytes = maxBytes;
        }

        public long maxBytes() {
            return maxBytes;
        }
    }

    private InputFiles() {
    }

    /**
     * The bytes of {@code file}, which must be a regular file of at most {@code kind}'s limit (links are followed
     * to what they name). {@code what} names the kind of file in errors ("profile", "nvbandwidth output").
     */
    public static byte[] readBytes(Path file, String what, Kind kind) {
        BasicFileAttributes attributes = regularFile(file, what);
        if (attributes.size() > kind.maxBytes()) {
            throw tooLarge(file, what, kind, attributes.size());
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            // One byte more than the size the file had: a file that grows while it is read is refused, not followed.
            ByteBuffer buffer = ByteBuffer.allocate((int) attributes.size() + 1);
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                // read until the buffer is full or the file ends
            }
            if (!buffer.hasRemaining()) {
                throw new BadInputException(what + " must not grow while it is read: file=" + file + ", bytes>"
                        + attributes.size());
            }
            byte[] bytes = new byte[buffer.position()];
            buffer.flip().get(bytes);
            return bytes;
        } catch (IOException e) {
            throw unreadable(file, what, e);
        }
    }

    /**
     * {@code file} opened to be read as a stream (a trace of gigabytes is never held whole), after the same checks
     * as {@link #readBytes}: a regular file of at most {@code kind}'s limit.
     */
    public static java.io.InputStream openStream(Path file, String what, Kind kind) {
        BasicFileAttributes attributes = regularFile(file, what);
        if (attributes.size() > kind.maxBytes()) {
            throw tooLarge(file, what, kind, attributes.size());
        }
        try {
            return Files.newInputStream(file, StandardOpenOption.READ);
        } catch (IOException e) {
            throw unreadable(file, what, e);
        }
    }

    /** {@code file} checked as {@link #openStream} checks it, for readers that open it themselves (a database). */
    public static void checkRegular(Path file, String what, Kind kind) {
        BasicFileAttributes attributes = regularFile(file, what);
        if (attributes.size() > kind.maxBytes()) {
            throw tooLarge(file, what, kind, attributes.size());
        }
    }

    /** The text of {@code file} as {@link #readBytes}, which must be valid UTF-8. */
    public static String readText(Path file, String what, Kind kind) {
        return decode(readBytes(file, what, kind), file.toString(), what);
    }

    /** {@code bytes} as UTF-8 text; invalid UTF-8 is an error naming the byte where it starts. */
    public static String decode(byte[] bytes, String file, String what) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            throw new BadInputException(what + " must be UTF-8 text: file=" + file + ", byte=" + in.position());
        }
        return out.flip().toString();
    }

    /** The attributes of {@code file} if it is a regular file; otherwise a one-line error naming what it is. */
    static BasicFileAttributes regularFile(Path file, String what) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw new BadInputException(what + " must be an existing file: file=" + file);
        } catch (IOException e) {
            throw unreadable(file, what, e);
        }
        if (attributes.isDirectory()) {
            throw new BadInputException(what + " must be a file, not a directory: file=" + file);
        }
        if (!attributes.isRegularFile()) {
            throw new BadInputException(what + " must be a regular file, not " + typeOf(file) + ": file=" + file);
        }
        return attributes;
    }

    /** What a file that is not a regular file or a directory is, as its mode says ("a FIFO"). */
    private static String typeOf(Path file) {
        try {
            int type = ((Integer) Files.getAttribute(file, "unix:mode")) & 0170000;
            return switch (type) {
                case 0010000 -> "a FIFO";
                case 0020000 -> "a character device";
                case 0060000 -> "a block device";
                case 0140000 -> "a socket";
                default -> "a special file";
            };
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "a special file";
        }
    }

    private static BadInputException tooLarge(Path file, String what, Kind kind, long size) {
        return new BadInputException(what + " must be at most " + kind.maxBytes() + " bytes: file=" + file + ", bytes="
                + size);
    }

    private static BadInputException unreadable(Path file, String what, IOException e) {
        if (e instanceof AccessDeniedException) {
            return new BadInputException(what + " must be readable by this user: file=" + file, e);
        }
        String problem = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
        return new BadInputException(what + " must be readable: file=" + file + ", problem=" + problem, e);
    }
}
