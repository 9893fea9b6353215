package membound.cli.options;

import picocli.CommandLine.Option;

/** {@code --profile PROFILE}: the measured profile a prediction runs on. */
public final class ProfileOption {

    @Option(names = "--profile", paramLabel = "PROFILE",
            description = "A measured profile (membound calibrate): a file, latest or latest:<host>.")
    String reference;

    /** Whether a profile was named. */
    public boolean given() {
        return reference != null;
    }

    /** The profile as named on the command line: a file, {@code latest} or {@code latest:<host>}; null if none. */
    public String reference() {
        return reference;
    }

    /** The profile as named, or {@code fallback} (validate predicts from the latest one by default). */
    public String referenceOr(String fallback) {
        return reference != null ? reference : fallback;
    }
}
