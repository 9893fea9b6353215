package membound.export;

import membound.vocabulary.BadInputException;

/**
 * One number written into a tool's file: the key the tool reads, the value in the tool's unit, the same figure in
 * SI units (bytes, bytes per second, FLOP per second, seconds, or a plain ratio), and where it came from.
 *
 * @param file    the file it is written to ({@code gpu.json}, {@code network.yml})
 * @param key     the key as a path into the file ({@code matrix.bfloat16.tflops}, {@code networks[1].latency})
 * @param value   as written, in {@code unit}
 * @param unit    the tool's unit ({@code GiB}, {@code GB/s}, {@code TFLOP/s}, {@code s}, {@code us}, {@code ns})
 * @param siValue the figure in {@code siUnit}: {@code value} times the tool's factor
 * @param siUnit  {@code B}, {@code B/s}, {@code FLOP/s}, {@code s} or {@code 1} (a ratio)
 * @param origin  measured, datasheet, published or neutral
 * @param source  the profile entry or catalog source, as the model names it
 */
public record ExportedFigure(String file, String key, double value, String unit, double siValue, String siUnit,
                             Origin origin, String source) {

    public ExportedFigure {
        if (file == null || key == null || unit == null || siUnit == null || origin == null || source == null
                || source.isBlank()) {
            throw new BadInputException("an exported figure needs a file, a key, units, an origin and a source: key="
                    + key);
        }
        if (!Double.isFinite(value) || !Double.isFinite(siValue) || value < 0) {
            throw new BadInputException("an exported figure must be finite and not negative: " + key + "=" + value);
        }
    }
}
