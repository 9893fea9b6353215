package membound.benchmarks.tenant;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The line protocol between a parent and a tenant: a child JVM of its own that holds its arrays and team, as another
 * user's job on the same machine does. Both kinds of tenant speak it, the STREAM tenants of
 * {@code calibrate --tenants} ({@link StreamTenantMain}) and the AdamW tenants of {@code TenantsBenchmark}
 * ({@code membound.benchmarks.training.TenantMain}); their parents talk to them through {@link TenantConnection}.
 *
 * <p>The tenant prints {@value #READY} once its arrays are built. Then each line on its stdin is one {@link Command}
 * and gets one line on its stdout: {@code done} followed by zero or more integers (what the command measured), or
 * {@code error <message>} on one line. {@link Command#QUIT} gets no answer; a tenant also exits when its stdin
 * closes, so a parent that dies takes its tenants with it.
 */
public final class TenantProtocol {

    /** The first line a tenant prints, once it is ready for commands. */
    public static final String READY = "ready";
    static final String DONE = "done";
    static final String ERROR = "error";

    private TenantProtocol() {
    }

    /** What a parent asks of a tenant; {@link #word()} is how it is written on the line. */
    public enum Command {
        /** {@code run <millis>}: passes back to back for that long; answers each pass's time in nanoseconds. */
        RUN,
        /** One step; answers its time in nanoseconds. */
        STEP,
        /** Back to the starting values; answers nothing. */
        RESET,
        /** The arrays against their closed form (or the scalar twins' replay); answers nothing, or an error. */
        CHECK,
        /** Exit; no answer. */
        QUIT;

        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Whether the command takes a duration in milliseconds. */
        public boolean takesMillis() {
            return this == RUN;
        }
    }

    /** One command line: the command and, for {@link Command#RUN}, its duration. */
    public record Request(Command command, long millis) {

        public Request {
            if (command == null) {
                throw new NullPointerException("command");
            }
            if (command.takesMillis() ? millis <= 0 : millis != 0) {
                throw new IllegalArgumentException(command.takesMillis()
                        ? command.word() + " takes a positive duration: millis=" + millis
                        : command.word() + " takes no duration: millis=" + millis);
            }
        }

        public static Request of(Command command) {
            return new Request(command, 0);
        }

        public static Request run(long millis) {
            return new Request(Command.RUN, millis);
        }

        /** The line the parent writes. */
        public String line() {
            return command.takesMillis() ? command.word() + " " + millis : command.word();
        }

        /**
         * The command on one line, as the tenant reads it.
         *
         * @throws IllegalArgumentException naming the line, if it is not one of {@code accepted} written as above
         */
        public static Request parse(String line, Set<Command> accepted) {
            String[] words = line.trim().split("\\s+");
            for (Command command : accepted) {
                if (!command.word().equals(words[0])) {
                    continue;
                }
                if (command.takesMillis() && words.length == 2) {
                    try {
                        return new Request(command, Long.parseLong(words[1]));
                    } catch (NumberFormatException e) {
                        break;
                    }
                }
                if (!command.takesMillis() && words.length == 1) {
                    return of(command);
                }
            }
            throw new IllegalArgumentException("command must be " + usage(accepted) + ": command=" + line);
        }

        private static String usage(Set<Command> accepted) {
            return accepted.stream().sorted()
                    .map(c -> c.takesMillis() ? c.word() + " <millis>" : c.word())
                    .collect(Collectors.joining(", "));
        }
    }

    /** What a tenant does with one command: the integers of its answer (none for a command that measures nothing). */
    @FunctionalInterface
    public interface Handler {
        long[] answer(Request request);
    }

    /**
     * The tenant's side: prints {@value #READY}, then answers every line of {@code in} by {@code handler} until
     * {@link Command#QUIT} or the end of {@code in}. A command outside {@code accepted}, or one the handler fails,
     * gets {@code error <message>} and the tenant waits for the next.
     */
    public static void serve(BufferedReader in, PrintStream out, Set<Command> accepted, Handler handler)
            throws IOException {
        out.println(READY);
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            try {
                Request request = Request.parse(line, accepted);
                if (request.command() == Command.QUIT) {
                    return;
                }
                out.println(done(handler.answer(request)));
            } catch (RuntimeException e) {
                out.println(error(String.valueOf(e.getMessage())));
            }
        }
    }

    /** {@code done} and the values, one space before each. */
    static String done(long... values) {
        StringBuilder line = new StringBuilder(DONE);
        for (long value : values) {
            line.append(' ').append(value);
        }
        return line.toString();
    }

    /** {@code error} and the message, kept on one line. */
    static String error(String message) {
        return ERROR + " " + message.replace('\r', ' ').replace('\n', ' ');
    }

    /**
     * The values of a {@code done} answer.
     *
     * @throws TenantFailedException with the tenant's message, for an {@code error} answer
     * @throws IllegalStateException for a line that is neither (a protocol violation: a bug on one side)
     */
    public static long[] answer(String line) {
        if (line.startsWith(ERROR + " ")) {
            throw new TenantFailedException(line.substring(ERROR.length() + 1));
        }
        if (line.equals(DONE) || line.startsWith(DONE + " ")) {
            String values = line.substring(DONE.length()).trim();
            try {
                return values.isEmpty() ? new long[0]
                        : Arrays.stream(values.split(" ")).mapToLong(Long::parseLong).toArray();
            } catch (NumberFormatException e) {
                // falls through to the violation below
            }
        }
        throw new IllegalStateException("a tenant's answer must be 'done [integers]' or 'error <message>': answer="
                + line);
    }

    /** A tenant answered {@code error <message>}: the command failed there (a failed check, an exception). */
    public static final class TenantFailedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TenantFailedException(String message) {
            super(message);
        }
    }
}
