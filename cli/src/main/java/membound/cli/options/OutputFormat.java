package membound.cli.options;

import membound.vocabulary.BadInputException;

/** How a command prints: a table for people, or JSON for programs. */
public enum OutputFormat {
    TEXT, JSON;

    public static OutputFormat of(String text) {
        return switch (text) {
            case "text" -> TEXT;
            case "json" -> JSON;
            default -> throw new BadInputException("--format must be text or json: --format=" + text);
        };
    }
}
