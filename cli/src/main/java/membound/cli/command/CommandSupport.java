package membound.cli.command;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import picocli.CommandLine;

import membound.calibrator.store.ProfileStore;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.vocabulary.text.EditDistance;

/** What the profile commands share: finding profiles, the version, the command line as typed. */
final class CommandSupport {

    private CommandSupport() {
    }

    /** A profile named on the command line (a file, {@code latest}, {@code latest:<host>}) and its path. */
    record Named(Path path, Profile profile) {
    }

    static Named read(ProfileStore store, String reference) {
        Path path = store.resolve(reference);
        return new Named(path, ProfileJson.read(path));
    }

    /**
     * The rows whose key starts with {@code prefix} (all rows when it is null); none is an error that
     * lists the keys closest to what was asked.
     */
    static <T> List<T> figure(List<T> rows, java.util.function.Function<T, String> key, String prefix) {
        if (prefix == null) {
            return rows;
        }
        List<T> matching = rows.stream().filter(r -> key.apply(r).startsWith(prefix)).toList();
        if (matching.isEmpty()) {
            List<String> close = rows.stream().map(key).sorted(java.util.Comparator.comparingInt(
                    (String k) -> EditDistance.between(k.length() > prefix.length() ? k.substring(0, prefix.length()) : k,
                            prefix))).limit(3).toList();
            throw new membound.vocabulary.BadInputException("--figure must be a figure of the profiles or the start of "
                    + "one: --figure=" + prefix + (close.isEmpty() ? "" : " (closest: " + String.join(", ", close)
                    + ")"));
        }
        return matching;
    }

    static String version() {
        String v = CommandSupport.class.getPackage().getImplementationVersion();
        return v != null ? v : "dev";
    }

    static String commandLine(CommandLine.Model.CommandSpec spec) {
        List<String> args = spec.commandLine().getParseResult().originalArgs();
        // originalArgs holds the whole command line, the subcommand's name included.
        return "membound" + (args.isEmpty() ? "" : " " + args.stream()
                .map(a -> a.isEmpty() || a.matches(".*[\\s'\"$\\\\].*") ? "'" + a.replace("'", "'\\''") + "'" : a)
                .collect(Collectors.joining(" ")));
    }
}
