package membound.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;

/**
 * The process's standard output, which remembers why a write failed. A {@link PrintWriter} keeps only that
 * one did ({@link PrintWriter#checkError}); this keeps the reason too ("No space left on device", "Broken
 * pipe"), so a truncated output is reported as such in one line and never ends with exit status 0.
 */
final class StandardOutput extends FilterOutputStream {

    private volatile String problem;

    private StandardOutput() {
        super(new FileOutputStream(FileDescriptor.out));
    }

    /** A writer on standard output in the platform's charset (as {@code System.out} prints), and its stream. */
    static StandardOutput open() {
        return new StandardOutput();
    }

    PrintWriter writer() {
        return new PrintWriter(new OutputStreamWriter(this, Charset.defaultCharset()), true);
    }

    /** Why the first failed write failed, or null when none did. */
    String problem() {
        return problem;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        try {
            out.write(bytes, offset, length);
        } catch (IOException e) {
            remember(e);
            throw e;
        }
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            remember(e);
            throw e;
        }
    }

    private void remember(IOException e) {
        if (problem == null) {
            problem = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
    }
}
