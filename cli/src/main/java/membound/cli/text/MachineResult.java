package membound.cli.text;

/** One machine's prediction, or (when comparing) the one-line reason it has none. */
public record MachineResult<T>(String machine, T value, String error) {
}
