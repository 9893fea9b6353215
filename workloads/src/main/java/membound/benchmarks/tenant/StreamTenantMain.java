package membound.benchmarks.tenant;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import membound.benchmarks.stream.ElementType;
import membound.benchmarks.stream.Implementation;
import membound.benchmarks.stream.StreamKernel;
import membound.benchmarks.stream.StreamRun;
import membound.benchmarks.stream.StreamWorkload;

/**
 * One tenant of a shared-bandwidth measurement ({@code membound calibrate --tenants K}): a JVM of its own with
 * its own arrays and team, as another user's job on the same machine is. It builds a {@link StreamRun}, prints
 * {@code ready}, then answers one command a line on stdin with one line on stdout:
 * <ul>
 *   <li>{@code run <millis>}: runs passes back to back for that long and answers
 *       {@code done <passes> <nanos> <nanos> ...}, each pass's time;</li>
 *   <li>{@code check}: checks every array against STREAM's closed form, answers {@code done} or
 *       {@code error <message>};</li>
 *   <li>{@code quit}.</li>
 * </ul>
 * A tenant exits when its stdin closes, so a parent that dies takes its tenants with it.
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
            out.println("ready");
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] command = line.trim().split("\\s+");
                try {
                    switch (command[0]) {
                        case "run" -> out.println(run(run, Long.parseLong(command[1])));
                        case "check" -> {
                            run.check();
                            out.println("done");
                        }
                        case "quit" -> {
                            return;
                        }
                        default -> out.println("error command must be run <millis>, check or quit: command=" + line);
                    }
                } catch (RuntimeException e) {
                    out.println("error " + String.valueOf(e.getMessage()).replace('\n', ' '));
                }
            }
        }
    }

    private static String run(StreamRun run, long millis) {
        StringBuilder answer = new StringBuilder();
        long until = System.nanoTime() + millis * 1_000_000L;
        int passes = 0;
        do {
            answer.append(' ').append(run.pass());
            passes++;
        } while (System.nanoTime() < until);
        return "done " + passes + answer;
    }
}
