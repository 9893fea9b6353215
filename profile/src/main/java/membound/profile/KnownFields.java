package membound.profile;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import membound.vocabulary.BadInputException;

/**
 * Finds keys the schema does not have, before binding. Jackson reports an unknown key only after the
 * record's constructor has run, so a misspelt required key would otherwise be reported as missing.
 */
final class KnownFields {

    private KnownFields() {
    }

    static void check(JsonNode node, Type type, String path, String file) {
        Class<?> raw = raw(type);
        if (raw == null || node == null) {
            return;
        }
        if (raw.isRecord() && node.isObject()) {
            Set<String> known = new TreeSet<>();
            for (RecordComponent component : raw.getRecordComponents()) {
                known.add(component.getName());
            }
            if (raw == Profile.class) {
                known.add("schema");
                known.add("schemaVersion");
            }
            for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!known.contains(name)) {
                    throw new BadInputException("profile field must be one of " + String.join(", ", known)
                            + ": file=" + file + (path.isEmpty() ? "" : ", at=" + path) + ", field=" + name);
                }
            }
            for (RecordComponent component : raw.getRecordComponents()) {
                String child = path.isEmpty() ? component.getName() : path + "." + component.getName();
                check(node.get(component.getName()), component.getGenericType(), child, file);
            }
        } else if (List.class.isAssignableFrom(raw) && node.isArray() && type instanceof ParameterizedType p) {
            for (int i = 0; i < node.size(); i++) {
                check(node.get(i), p.getActualTypeArguments()[0], path + "[" + i + "]", file);
            }
        }
    }

    private static Class<?> raw(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> c) {
            return c;
        }
        return null;
    }
}
