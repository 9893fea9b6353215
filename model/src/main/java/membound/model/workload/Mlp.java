package membound.model.workload;

import java.util.List;

import membound.vocabulary.BadInputException;

/**
 * A plain multi-layer perceptron: {@code widths} [in, hidden..., out], one linear layer between each
 * pair, the activation after every layer but the last. Its "tokens" are samples.
 */
public record Mlp(String name, String source, List<Integer> widths, Activation activation, boolean biases)
        implements Workload {

    public Mlp {
        if (widths == null || widths.size() < 2) {
            throw new BadInputException("mlp widths must list at least an input and an output width: widths=" + widths);
        }
        for (Integer width : widths) {
            if (width == null || width <= 0) {
                throw new BadInputException("mlp widths must be positive: widths=" + widths);
            }
        }
        if (activation == null || activation.gated()) {
            throw new BadInputException("mlp activation must be gelu or relu: activation=" + activation);
        }
        widths = List.copyOf(widths);
        if (name == null || name.isBlank()) {
            name = "mlp-" + String.join("x", widths.stream().map(String::valueOf).toList());
        }
        if (source == null || source.isBlank()) {
            source = "given in code";
        }
    }

    public int linearLayers() {
        return widths.size() - 1;
    }

    @Override
    public ParameterCounts parameters() {
        long weights = 0;
        for (int i = 0; i < linearLayers(); i++) {
            weights += (long) widths.get(i) * widths.get(i + 1) + (biases ? widths.get(i + 1) : 0);
        }
        return new ParameterCounts(0, 0, 0, weights, 0, 0, 0, 0, 0);
    }
}
