package membound.profile;

import java.util.Arrays;
import java.util.stream.Collectors;

import membound.vocabulary.BadInputException;

/** Enums that are written to JSON under a fixed name, and read back with the known names in the error. */
interface JsonNames {

    String jsonName();

    static <E extends Enum<E> & JsonNames> E parse(Class<E> type, String field, String text) {
        for (E value : type.getEnumConstants()) {
            if (value.jsonName().equals(text)) {
                return value;
            }
        }
        throw new BadInputException(field + " must be one of " + known(type) + ": " + field + "=" + text);
    }

    static <E extends Enum<E> & JsonNames> String known(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(JsonNames::jsonName).collect(Collectors.joining(", "));
    }
}
