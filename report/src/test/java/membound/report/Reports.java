package membound.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import membound.report.cli.ReportCommand;
import picocli.CommandLine;

/** Reports made the way membound report makes them, for tests: the example profile, a small workload. */
public final class Reports {

    private static ReportRenderer.Rendered example;
    private static ReportInput exampleInput;

    private Reports() {
    }

    public static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("results/profiles/examples")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("tests must run inside the repository");
    }

    public static Path exampleProfile() {
        return root().resolve("results/profiles/examples/dgx-spark-example.json");
    }

    /** The input of {@code membound report ARGS --out OUT}, without writing anything. */
    public static ReportInput input(Path out, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--out");
        all.add(out.toString());
        CommandLine commandLine = new CommandLine(new ReportCommand());
        commandLine.parseArgs(all.toArray(String[]::new));
        ReportCommand command = commandLine.getCommand();
        return command.input();
    }

    /**
     * The example profile with Llama-3.2 1B compared with two catalog entries: made once per test run (a
     * report takes seconds, and the machine is shared).
     */
    public static synchronized ReportRenderer.Rendered example() {
        if (example == null) {
            example = ReportRenderer.render(exampleInput());
        }
        return example;
    }

    public static synchronized ReportInput exampleInput() {
        if (exampleInput == null) {
            exampleInput = input(Path.of("unused-out-dir"), "--profile", exampleProfile().toString(), "--model",
                    "llama-3.2-1b", "--compare", "gh200,h100");
        }
        return exampleInput;
    }
}
