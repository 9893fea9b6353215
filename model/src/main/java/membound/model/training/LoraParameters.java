package membound.model.training;

import membound.model.workload.Transformer;

/**
 * Trainable parameters of LoRA adapters: r x (in + out) per targeted matrix (A is in x r, B is
 * r x out; Hu et al. 2021), every layer, every expert for expert matrices.
 */
public final class LoraParameters {

    private LoraParameters() {
    }

    public static double count(Transformer tf, FineTuning ft) {
        double r = ft.rank();
        double h = tf.hiddenSize();
        double q = tf.queryDimension();
        double kv = tf.keyValueDimension();
        // Every MLP of a layer (the dense one, each expert, the shared experts): how many and their widths summed.
        double moeLayers = tf.expertLayers();
        double denseLayers = tf.denseMlpLayers();
        boolean shared = tf.experts().sharedWidth() > 0;
        double mlps = (denseLayers + moeLayers * (tf.experts().experts() + (shared ? 1 : 0))) / tf.layers();
        double widths = (denseLayers * tf.intermediateSize() + moeLayers * ((double) tf.experts().experts()
                * tf.experts().expertWidth() + tf.experts().sharedWidth())) / tf.layers();
        double mlpMatrix = r * (mlps * h + widths);
        double perLayer = 0;
        if (ft.targets(LoraTarget.Q)) {
            perLayer += r * (h + q);
        }
        if (ft.targets(LoraTarget.K)) {
            perLayer += r * (h + kv);
        }
        if (ft.targets(LoraTarget.V)) {
            perLayer += r * (h + kv);
        }
        if (ft.targets(LoraTarget.O)) {
            perLayer += r * (q + h);
        }
        if (ft.targets(LoraTarget.GATE) && tf.activation().gated()) {
            perLayer += mlpMatrix;
        }
        if (ft.targets(LoraTarget.UP)) {
            perLayer += mlpMatrix;
        }
        if (ft.targets(LoraTarget.DOWN)) {
            perLayer += mlpMatrix;
        }
        return perLayer * tf.layers();
    }
}
