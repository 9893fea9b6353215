package membound.benchmarks.suite;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormat;

/** Runs a {@link SuitePlan} through JMH's Runner API and keeps the raw results as JMH's JSON. */
public final class SuiteRunner {

    private SuiteRunner() {
    }

    /** Runs every step in order; {@code format} sees all of JMH's output. */
    public static List<RunResult> run(SuitePlan plan, OutputFormat format) throws RunnerException {
        List<RunResult> results = new ArrayList<>();
        for (SuitePlan.Step step : plan.steps()) {
            results.addAll(new Runner(step.options(), format).run());
        }
        return results;
    }

    /**
     * Writes {@code results} as one JMH JSON file: into a temporary file first, then moved into place, so a
     * reader never sees half a file; an existing file is never overwritten (a {@code -2}, {@code -3} ...
     * suffix is added instead).
     *
     * @return the file written
     */
    public static Path writeJson(List<RunResult> results, Path file) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        Path temporary = Files.createTempFile(directory, ".jmh-", ".json.tmp");
        try {
            try (PrintStream json = new PrintStream(Files.newOutputStream(temporary), false, StandardCharsets.UTF_8)) {
                ResultFormatFactory.getInstance(ResultFormatType.JSON, json).writeOut(results);
            }
            Path target = file.toAbsolutePath();
            String name = target.getFileName().toString();
            String stem = name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
            for (int n = 2; Files.exists(target); n++) {
                target = target.resolveSibling(stem + "-" + n + ".json");
            }
            return Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
