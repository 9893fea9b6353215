package membound.vocabulary.files;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

import membound.vocabulary.BadInputException;

/**
 * A file name a user typed, made a {@link Path} in one place: an empty name is refused (it would mean the
 * current directory), and a name that the locale's encoding cannot hold ({@code LANG=C} holds only ASCII) is
 * a one-line error that prints the name escaped, so the message itself survives that locale.
 */
public final class PathNames {

    private PathNames() {
    }

    /** {@code name} as a path; {@code what} names it in errors ("--out", "profile"). */
    public static Path of(String what, String name) {
        if (name.isEmpty()) {
            throw new BadInputException(what + " must not be empty (an empty path would mean the current directory): "
                    + what + "=''");
        }
        try {
            return Path.of(name);
        } catch (InvalidPathException e) {
            throw new BadInputException(what + " must be a name this locale's file names can hold (sun.jnu.encoding="
                    + System.getProperty("sun.jnu.encoding") + "; a UTF-8 locale such as LANG=C.UTF-8 holds any name): "
                    + what + "=" + escaped(name));
        }
    }

    /** {@code text} with every character outside printable ASCII written as {@code \\uXXXX}. */
    public static String escaped(String text) {
        StringBuilder s = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            if (c >= 0x20 && c < 0x7f) {
                s.append(c);
            } else {
                s.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
            }
        }
        return s.toString();
    }
}
