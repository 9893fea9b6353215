package membound.vocabulary.text;

/**
 * The command a user types to run membound, for the hints and examples it prints: a hint is pasted as it stands,
 * and there is no {@code membound} on a fresh machine's PATH. {@code scripts/membound} passes the path it was run
 * by ({@code -Dmembound.command}); run any other way (a test, {@code java -jar}), the README's
 * {@code scripts/membound}, relative to the repository root.
 */
public final class Launcher {

    /** The system property the launcher script sets. */
    public static final String PROPERTY = "membound.command";
    /** What hints say when the launcher did not set {@link #PROPERTY}: the README's command. */
    public static final String DEFAULT = "scripts/membound";

    private Launcher() {
    }

    /** The command as the user ran it, e.g. {@code scripts/membound}. */
    public static String command() {
        String given = System.getProperty(PROPERTY);
        return given == null || given.isBlank() || !given.matches("[A-Za-z0-9_./+@%-]+") ? DEFAULT : given;
    }

    /** {@code sub} (a subcommand and its arguments) as a command to paste: {@code scripts/membound sub}. */
    public static String command(String sub) {
        return command() + " " + sub;
    }
}
