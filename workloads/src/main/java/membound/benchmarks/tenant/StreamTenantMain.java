package membound.benchmarks.tenant;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumSet;

import membound.benchmarks.stream.ElementType;
import membound.benchmarks.stream.StreamKernel;
import membound.benchmarks.stream.StreamRun;
import membound.benchmarks.stream.StreamWorkload;
import membound.benchmarks.tenant.TenantProtocol.Command;
import membound.vocabulary.Implementation;

/**
 * One tenant of a shared-bandwidth measurement ({@code membound calibrate --tenants K}): a JVM of its own with
 * its own arrays and team, as another user's job on the same machine is. It builds a {@link StreamRun}, then
 * speaks {@link TenantProtocol}: {@code run <millis>} runs passes back to back for that long and answers each
 * pass's time in nanoseconds; {@code check} checks every array against STREAM's closed form; {@code quit}.
 *
 * <p>Usage: {@code java --add-modules=jdk.incubator.vector -cp <classpath> membound.benchmarks.tenant.StreamTenantMain
 * <kernel> <double|float> <arrayBytes> <threads>}.
 */
public final class StreamTenantMain {

    private StreamTenantMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: StreamTenantMain <kernel> <double|float> <arrayBytes> <threads>");
            System.exit(2);
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        StreamWorkload workload = StreamWorkload.of(StreamKernel.of(args[0]), ElementType.of(args[1]),
                Long.parseLong(args[2]), Integer.parseInt(args[3]));
        try (StreamRun run = StreamRun.start(workload, Implementation.VECTOR);
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            TenantProtocol.serve(in, out, EnumSet.of(Command.RUN, Command.CHECK, Command.QUIT), request -> {
                if (request.command() == Command.RUN) {
                    return passes(run, request.millis());
                }
                run.check();
                return new long[0];
            });
        }
    }

    /** Each pass's nanoseconds, passes back to back for {@code millis} (at least one pass). */
    private static long[] passes(StreamRun run, long millis) {
        long[] nanos = new long[64];
        long until = System.nanoTime() + millis * 1_000_000L;
        int passes = 0;
        do {
            if (passes == nanos.length) {
                nanos = Arrays.copyOf(nanos, 2 * passes);
            }
            nanos[passes++] = run.pass();
        } while (System.nanoTime() < until);
        return Arrays.copyOf(nanos, passes);
    }
}
