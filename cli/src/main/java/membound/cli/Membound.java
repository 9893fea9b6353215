package membound.cli;

import java.io.PrintWriter;

import picocli.CommandLine.Command;
import picocli.CommandLine;

import membound.cli.command.AnswerCommand;
import membound.cli.command.CalibrateCommand;
import membound.cli.command.CompareCommand;
import membound.cli.command.ExportCommand;
import membound.cli.command.FleetCommand;
import membound.cli.command.HardwareCommand;
import membound.cli.command.ImportCommand;
import membound.cli.command.PredictCommand;
import membound.cli.command.ReportCommand;
import membound.cli.command.ShowCommand;
import membound.cli.command.TraceCommand;
import membound.cli.command.ValidateCommand;
import membound.vocabulary.BadInputException;

/**
 * {@code membound}: one launcher, one subcommand per task. Exit status 0 on success, 2 on bad input
 * (one line naming the thing, the rule and the value; no stack trace), 1 on anything else.
 */
@Command(name = "membound",
        mixinStandardHelpOptions = true,
        versionProvider = Membound.Version.class,
        description = "Measured memory bandwidth, hardware profiles and the training time they imply.",
        footer = {"", "Start here (README.md, \"On a fresh machine\"):",
                "  ${sys:membound.command:-scripts/membound} calibrate --quick",
                "  ${sys:membound.command:-scripts/membound} predict --profile latest --model llama-3.1-8b",
                "  ${sys:membound.command:-scripts/membound} answer --hardware dgx-spark --model llama-3.1-8b --out answer",
                "Each command's options: ${sys:membound.command:-scripts/membound} COMMAND --help"},
        subcommands = {
                CommandLine.HelpCommand.class,
                HardwareCommand.class,
                CalibrateCommand.class,
                ShowCommand.class,
                CompareCommand.class,
                ImportCommand.class,
                ExportCommand.class,
                FleetCommand.class,
                PredictCommand.class,
                ReportCommand.class,
                AnswerCommand.class,
                ValidateCommand.class,
                TraceCommand.class,
        })
public final class Membound implements Runnable {

    public static final int EXIT_BAD_INPUT = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        StandardOutput stdout = StandardOutput.open();
        System.exit(run(args, stdout.writer(), new PrintWriter(System.err, true), stdout::problem));
    }

    /** Runs a command line as {@code main} does, writing to the given streams; returns the exit status. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(args, out, err, () -> null);
    }

    /**
     * As {@link #run(String[], PrintWriter, PrintWriter)}; a write to {@code out} that failed (a full disk,
     * {@code /dev/full}, a closed pipe) turns any exit status into {@value #EXIT_BAD_INPUT} with one line
     * saying so, {@code outProblem} giving the reason where it is known.
     */
    static int run(String[] args, PrintWriter out, PrintWriter err, java.util.function.Supplier<String> outProblem) {
        CommandLine commandLine = commandLine();
        commandLine.setOut(out);
        commandLine.setErr(err);
        int exit = commandLine.execute(args);
        if (out.checkError()) {
            String problem = outProblem.get();
            err.println("membound: standard output must take every byte written to it; the output is incomplete"
                    + (problem == null ? "" : ": problem=" + problem));
            err.flush();
            return EXIT_BAD_INPUT;
        }
        return exit;
    }

    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new Membound());
        // Every path on the command line is made in one place: "" and names the locale cannot hold are refused.
        commandLine.registerConverter(java.nio.file.Path.class, Membound::path);
        commandLine.setParameterExceptionHandler((e, args) -> {
            CommandLine failed = e.getCommandLine();
            failed.getErr().println("membound: " + oneLine(e.getMessage())
                    + " (see '" + failed.getCommandSpec().qualifiedName() + " --help')");
            return EXIT_BAD_INPUT;
        });
        commandLine.setExecutionExceptionHandler((e, failed, parseResult) -> {
            if (e instanceof BadInputException) {
                failed.getErr().println("membound: " + oneLine(e.getMessage()));
                return EXIT_BAD_INPUT;
            }
            throw e;
        });
        return commandLine;
    }

    private static java.nio.file.Path path(String name) {
        try {
            return membound.vocabulary.files.PathNames.of("path", name);
        } catch (BadInputException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /** A message as one line: picocli's quote the argument, which may hold a line break. */
    private static String oneLine(String message) {
        return message == null ? "bad input" : BadInputException.oneLine(message.strip());
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The version recorded in the jar's manifest by Maven, or "dev" when run from classes. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Membound.class.getPackage().getImplementationVersion();
            return new String[] {"membound " + (version != null ? version : "dev")};
        }
    }
}
