package membound.benchmarks.training;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * One tenant of {@link TenantsBenchmark}: a JVM of its own that builds an {@link OptimizerStep} and then runs
 * what its parent asks, one command a line on stdin, answering one line on stdout: {@code step} (answers
 * {@code done <nanos>}), {@code reset}, {@code check} (answer {@code done 0}, or {@code error <message>}),
 * {@code quit}. It prints {@code ready} once its arrays are built and exits when stdin closes, so a parent
 * that dies takes its tenants with it.
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
            out.println("ready");
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                try {
                    switch (line.trim()) {
                        case "step" -> out.println("done " + optimizer.step());
                        case "reset" -> {
                            optimizer.reset();
                            out.println("done 0");
                        }
                        case "check" -> {
                            optimizer.check();
                            out.println("done 0");
                        }
                        case "quit" -> {
                            return;
                        }
                        default -> out.println("error command must be step, reset, check or quit: command=" + line);
                    }
                } catch (RuntimeException e) {
                    out.println("error " + String.valueOf(e.getMessage()).replace('\n', ' '));
                }
            }
        }
    }
}
