package membound.vocabulary;

/**
 * Input a user can fix: a malformed file, a wrong flag, an impossible configuration.
 *
 * <p>The message is one line that names the thing, the rule and the value, as in
 * {@code "workingSet must be a size such as 64MiB or a cache level L1, L2, L3, DRAM: workingSet=64XB"}.
 * Every command prints it as it is and exits with status 2; no stack trace reaches the user.
 *
 * <p>It is the one exception library code throws for bad input. It is an {@link IllegalArgumentException} so that
 * a record's compact constructor that rejects a value reads as Java's own do, and code that guards against
 * illegal arguments in general still sees it.
 */
public class BadInputException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public BadInputException(String message) {
        super(message);
    }

    public BadInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
