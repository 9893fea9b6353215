package membound.vocabulary;

/**
 * Input a user can fix: a malformed file, a wrong flag, an impossible configuration.
 *
 * <p>The message is one line that names the thing, the rule and the value, as in
 * {@code "workingSet must be a size such as 64MiB or a cache level L1, L2, L3, DRAM: workingSet=64XB"}.
 * Every command prints it as it is and exits with status 2; no stack trace reaches the user.
 */
public class BadInputException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public BadInputException(String message) {
        super(message);
    }

    public BadInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
