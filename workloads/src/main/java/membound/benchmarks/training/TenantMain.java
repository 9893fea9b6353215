package membound.benchmarks.training;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;

import membound.benchmarks.tenant.TenantProtocol;
import membound.benchmarks.tenant.TenantProtocol.Command;

/**
 * One tenant of {@link TenantsBenchmark}: a JVM of its own that builds an {@link OptimizerStep}, then speaks
 * {@link TenantProtocol}: {@code step} answers the step's nanoseconds, {@code reset} and {@code check} answer
 * nothing (or the check's error), {@code quit}.
 *
 * <p>Usage: {@code java --add-modules=jdk.incubator.vector -cp <classpath> membound.benchmarks.training.TenantMain
 * <parameters> <threads>}.
 */
public final class TenantMain {

    private TenantMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: TenantMain <parameters> <threads>");
            System.exit(2);
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (OptimizerStep optimizer = new OptimizerStep(Long.parseLong(args[0]), Integer.parseInt(args[1]),
                AdamWSettings.DEFAULTS);
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            TenantProtocol.serve(in, out, EnumSet.of(Command.STEP, Command.RESET, Command.CHECK, Command.QUIT),
                    request -> switch (request.command()) {
                        case STEP -> {
                            optimizer.step();
                            yield new long[] {optimizer.lastStepNanos()};
                        }
                        case RESET -> {
                            optimizer.reset();
                            yield new long[0];
                        }
                        case CHECK -> {
                            optimizer.check();
                            yield new long[0];
                        }
                        case RUN, QUIT -> throw new IllegalStateException("served by the protocol: " + request);
                    });
        }
    }
}
