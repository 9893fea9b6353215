package membound.cli;

import java.io.PrintWriter;

import picocli.CommandLine.Command;
import picocli.CommandLine;

import membound.cli.command.CalibrateCommand;
import membound.cli.command.CompareCommand;
import membound.cli.command.FleetCommand;
import membound.cli.command.HardwareCommand;
import membound.cli.command.ImportCommand;
import membound.cli.command.PredictCommand;
import membound.cli.command.ReportCommand;
import membound.cli.command.ShowCommand;
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
        subcommands = {
                CommandLine.HelpCommand.class,
                HardwareCommand.class,
                CalibrateCommand.class,
                ShowCommand.class,
                CompareCommand.class,
                ImportCommand.class,
                FleetCommand.class,
                PredictCommand.class,
                ReportCommand.class,
                ValidateCommand.class,
        })
public final class Membound implements Runnable {

    public static final int EXIT_BAD_INPUT = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs a command line as {@code main} does, writing to the given streams; returns the exit status. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = commandLine();
        commandLine.setOut(out);
        commandLine.setErr(err);
        return commandLine.execute(args);
    }

    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new Membound());
        commandLine.setParameterExceptionHandler((e, args) -> {
            CommandLine failed = e.getCommandLine();
            failed.getErr().println("membound: " + firstLine(e.getMessage())
                    + " (see '" + failed.getCommandSpec().qualifiedName() + " --help')");
            return EXIT_BAD_INPUT;
        });
        commandLine.setExecutionExceptionHandler((e, failed, parseResult) -> {
            if (e instanceof BadInputException) {
                failed.getErr().println("membound: " + firstLine(e.getMessage()));
                return EXIT_BAD_INPUT;
            }
            throw e;
        });
        return commandLine;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "bad input";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
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
