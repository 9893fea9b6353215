package membound.benchmarks.tenant;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import membound.benchmarks.tenant.TenantProtocol.Command;
import membound.benchmarks.tenant.TenantProtocol.Request;
import membound.benchmarks.tenant.TenantProtocol.TenantFailedException;

/** Both tenants' one protocol: what the parent writes is what the tenant parses, and what the tenant answers the parent reads. */
class TenantProtocolTest {

    private static final Set<Command> STREAM = EnumSet.of(Command.RUN, Command.CHECK, Command.QUIT);

    @Test
    void shouldParseEveryRequestItWrites() {
        for (Request request : List.of(Request.run(2000), Request.of(Command.STEP), Request.of(Command.RESET),
                Request.of(Command.CHECK), Request.of(Command.QUIT))) {
            assertEquals(request, Request.parse(request.line(), EnumSet.allOf(Command.class)));
        }
        assertEquals("run 2000", Request.run(2000).line());
        assertEquals(Request.run(5), Request.parse("  run   5 ", STREAM));
    }

    @Test
    void shouldRefuseACommandTheTenantDoesNotTakeNamingTheLine() {
        for (String line : List.of("step", "run", "run x", "run 1 2", "check now", "", "RUN 5")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Request.parse(line, STREAM));
            assertEquals("command must be run <millis>, check, quit: command=" + line, e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Request.run(0));
        assertThrows(IllegalArgumentException.class, () -> new Request(Command.STEP, 3));
    }

    @Test
    void shouldServeReadyThenOneAnswerALineUntilQuit() throws IOException {
        List<Request> seen = new ArrayList<>();
        String out = serve("run 10\ncheck\nstep\ncheck\nquit\nrun 10\n", request -> {
            seen.add(request);
            if (request.command() == Command.RUN) {
                return new long[] {5, 6, 7};
            }
            if (seen.size() == 3) {
                throw new IllegalStateException("array a differs\nat 3");
            }
            return new long[0];
        });
        assertEquals(List.of("ready", "done 5 6 7", "done", "error command must be run <millis>, check, quit: command=step",
                "error array a differs at 3"), out.lines().toList());
        assertEquals(List.of(Request.run(10), Request.of(Command.CHECK), Request.of(Command.CHECK)), seen.subList(0, 3));
    }

    @Test
    void shouldStopServingWhenStdinCloses() throws IOException {
        assertEquals(List.of("ready", "done"), serve("check\n", request -> new long[0]).lines().toList());
    }

    @Test
    void shouldReadEveryAnswerTheTenantWrites() {
        assertArrayEquals(new long[] {5, 6, 7}, TenantProtocol.answer(TenantProtocol.done(5, 6, 7)));
        assertArrayEquals(new long[0], TenantProtocol.answer(TenantProtocol.done()));
        TenantFailedException failed = assertThrows(TenantFailedException.class,
                () -> TenantProtocol.answer(TenantProtocol.error("check failed\nhere")));
        assertEquals("check failed here", failed.getMessage());
        for (String line : List.of("ready", "done x", "doner 5", "", "done 5  6")) {
            assertThrows(IllegalStateException.class, () -> TenantProtocol.answer(line), line);
        }
    }

    private static String serve(String input, TenantProtocol.Handler handler) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TenantProtocol.serve(new BufferedReader(new StringReader(input)),
                new PrintStream(bytes, true, StandardCharsets.UTF_8), STREAM, handler);
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
