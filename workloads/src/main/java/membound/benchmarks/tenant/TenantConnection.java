package membound.benchmarks.tenant;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import membound.benchmarks.tenant.TenantProtocol.Command;
import membound.benchmarks.tenant.TenantProtocol.Request;

/**
 * The parent's side of {@link TenantProtocol}: one started tenant process, its command pipe and its answers. A
 * parent that wants its tenants to run together {@link #send}s to each, then collects each {@link #answer}.
 */
public final class TenantConnection implements AutoCloseable {

    /** How long a tenant gets to leave after {@code quit} before it is stopped. */
    private static final long QUIT_MILLIS = 1000;
    private static final long STOP_SECONDS = 10;

    private final Process process;
    private final Writer commands;
    private final BufferedReader answers;
    private final Supplier<String> whyExited;

    /**
     * @param whyExited what to say when the tenant's stdout ends, such as the last line of its stderr
     */
    public TenantConnection(Process process, Supplier<String> whyExited) {
        this.process = process;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.whyExited = whyExited;
    }

    /** Waits for the tenant's {@value TenantProtocol#READY}. */
    public void awaitReady() throws IOException {
        String line = answers.readLine();
        if (line == null) {
            throw new IOException("tenant exited before it was ready: " + whyExited.get());
        }
        if (!TenantProtocol.READY.equals(line)) {
            throw new IOException("tenant did not say " + TenantProtocol.READY + ": " + line);
        }
    }

    public void send(Request request) throws IOException {
        commands.write(request.line());
        commands.write('\n');
        commands.flush();
    }

    /**
     * The values of the tenant's answer to {@code request}, already sent.
     *
     * @throws TenantProtocol.TenantFailedException if the tenant answered with an error
     * @throws IOException if the tenant exited instead of answering
     */
    public long[] answer(Request request) throws IOException {
        String line = answers.readLine();
        if (line == null) {
            throw new IOException("tenant exited during '" + request.line() + "': " + whyExited.get());
        }
        return TenantProtocol.answer(line);
    }

    /** {@link #send} then {@link #answer}. */
    public long[] ask(Request request) throws IOException {
        send(request);
        return answer(request);
    }

    /** Asks the tenant to quit, then stops it if it has not gone within a second (and kills it ten after). */
    @Override
    public void close() {
        try {
            send(Request.of(Command.QUIT));
            commands.close();
        } catch (IOException e) {
            // already gone
        }
        try {
            if (!process.waitFor(QUIT_MILLIS, TimeUnit.MILLISECONDS)) {
                process.destroy();
                process.waitFor(STOP_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
    }
}
