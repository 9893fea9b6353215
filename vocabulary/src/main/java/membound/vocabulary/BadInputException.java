package membound.vocabulary;

/**
 * Input a user can fix: a malformed file, a wrong flag, an impossible configuration.
 *
 * <p>The message is one line that names the thing, the rule and the value, as in
 * {@code "workingSet must be a size such as 64MiB or a cache level L1, L2, L3, DRAM: workingSet=64XB"}.
 * Every command prints it as it is and exits with status 2; no stack trace reaches the user. A value quoted from
 * the input may hold a line break (a JSON key written with the escape {@code \n}, a flag's argument): the message
 * stays one line because every control character and line separator in it is written as a Java escape.
 *
 * <p>It is the one exception library code throws for bad input. It is an {@link IllegalArgumentException} so that
 * a record's compact constructor that rejects a value reads as Java's own do, and code that guards against
 * illegal arguments in general still sees it.
 */
public class BadInputException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public BadInputException(String message) {
        super(oneLine(message));
    }

    public BadInputException(String message, Throwable cause) {
        super(oneLine(message), cause);
    }

    /**
     * {@code text} with every control character and line or paragraph separator written as a Java escape: how a
     * message from elsewhere (picocli's, quoting an argument) keeps to one line as this one does.
     */
    public static String oneLine(String text) {
        if (text == null || text.codePoints().noneMatch(BadInputException::breaks)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 8);
        text.codePoints().forEach(c -> {
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (breaks(c)) {
                        out.append(String.format("\\u%04x", c));
                    } else {
                        out.appendCodePoint(c);
                    }
                }
            }
        });
        return out.toString();
    }

    private static boolean breaks(int c) {
        return Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
    }
}
