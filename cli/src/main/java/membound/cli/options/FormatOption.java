package membound.cli.options;

import picocli.CommandLine.Option;

/**
 * {@code --format text|json}, for every command that prints a result. The value is kept as typed and
 * checked by {@link OutputFormat#of} when the command asks for it, at the point each command always checked
 * it: a bad value is then the usual one line naming the option, not picocli's conversion message.
 */
public final class FormatOption {

    @Option(names = "--format", paramLabel = "text|json", description = "text (default) or json")
    String format = "text";

    /** The format asked for; a value other than text or json is bad input. */
    public OutputFormat value() {
        return OutputFormat.of(format);
    }
}
