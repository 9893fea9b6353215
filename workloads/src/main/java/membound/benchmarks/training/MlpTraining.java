package membound.benchmarks.training;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import membound.benchmarks.compute.Elementwise;
import membound.benchmarks.compute.Matmul.View;
import membound.benchmarks.compute.Matmul;
import membound.vocabulary.BadInputException;

/**
 * Workload 2: training steps of a multi-layer perceptron on one fixed batch, in FP32: {@code widths} [in,
 * hidden..., classes], no biases, ReLU between layers, softmax cross-entropy on the last, AdamW with
 * gradient-norm clipping. Plain Java; {@link MlpBenchmark} times it with JMH.
 *
 * <p>A step is, per layer, the forward product {@code Z = A·W} and its activation; then backward the loss
 * gradient, per layer the weight gradient {@code dW += Aᵀ·dZ} (accumulated, the buffer is zeroed once per
 * step), the input gradient {@code dA = dZ·Wᵀ} (not for the first layer: its input needs none) and the
 * gradient through ReLU; then the optimizer step over all parameters ({@link AdamW}). Each phase splits its
 * rows over the threads; the products are {@link Matmul}'s, blocked as the calibrated GEMM is.
 *
 * <p>Parameters, gradients and moments are single flat arrays (one optimizer pass covers every layer, as
 * fused optimizers and flat-parameter buffers do); a layer's weight matrix is a view into them.
 */
public final class MlpTraining implements TrainingWorkload {

    private final int[] widths;
    private final int batch;
    private final AdamWSettings settings;
    private final boolean vector;
    private final Workers workers;
    private final int[] weightOffsets;
    private final float[] parameters;
    private final float[] gradients;
    private final float[] m;
    private final float[] v;
    private final float[] input;
    private final int[] labels;
    /** Pre-activations Z_i (the last is the logits) and activations A_i (the last is the probabilities). */
    private final float[][] z;
    private final float[][] a;
    private final float[] dz;
    private final float[] da;
    private final double[] partials;
    private long step;

    /**
     * @param widths input width, hidden widths, number of classes
     * @param batch rows (samples) of the fixed batch
     * @param vector Vector API kernels, or their scalar twins
     */
    public MlpTraining(int[] widths, int batch, int threads, AdamWSettings settings, long seed, boolean vector) {
        if (widths.length < 2 || Arrays.stream(widths).anyMatch(w -> w < 1) || batch < 1) {
            throw new BadInputException("widths must list at least two positive widths and batch must be positive: "
                    + "widths=" + Arrays.toString(widths) + ", batch=" + batch);
        }
        this.widths = widths.clone();
        this.batch = batch;
        this.settings = settings;
        this.vector = vector;
        this.workers = new Workers(threads);
        int layers = widths.length - 1;
        this.weightOffsets = new int[layers + 1];
        for (int i = 0; i < layers; i++) {
            weightOffsets[i + 1] = Math.addExact(weightOffsets[i], Math.multiplyExact(widths[i], widths[i + 1]));
        }
        int count = weightOffsets[layers];
        this.parameters = new float[count];
        this.gradients = new float[count];
        this.m = new float[count];
        this.v = new float[count];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < layers; i++) {
            // He initialization for ReLU layers.
            double std = Math.sqrt(2.0 / widths[i]);
            for (int p = weightOffsets[i]; p < weightOffsets[i + 1]; p++) {
                parameters[p] = (float) (random.nextGaussian() * std);
            }
        }
        this.input = new float[batch * widths[0]];
        for (int i = 0; i < input.length; i++) {
            input[i] = (float) random.nextGaussian();
        }
        this.labels = new int[batch];
        for (int r = 0; r < batch; r++) {
            labels[r] = random.nextInt(widths[layers]);
        }
        this.z = new float[layers][];
        this.a = new float[layers][];
        int widest = 0;
        for (int i = 0; i < layers; i++) {
            z[i] = new float[batch * widths[i + 1]];
            a[i] = new float[batch * widths[i + 1]];
            widest = Math.max(widest, widths[i + 1]);
        }
        this.dz = new float[batch * widest];
        this.da = new float[batch * widest];
        this.partials = new double[workers.threads()];
    }

    /**
     * Heap a training of this size holds: parameters, gradients and two moments, the batch, and two
     * activations per layer plus two gradient buffers, all FP32.
     */
    public static long footprintBytes(int[] widths, int batch) {
        long parameters = 0;
        long activations = (long) batch * widths[0];
        int widest = 0;
        for (int i = 0; i + 1 < widths.length; i++) {
            parameters += (long) widths[i] * widths[i + 1];
            activations += 2L * batch * widths[i + 1];
            widest = Math.max(widest, widths[i + 1]);
        }
        return Float.BYTES * (4 * parameters + activations + 2L * batch * widest);
    }

    public long parameterCount() {
        return parameters.length;
    }

    public int[] widths() {
        return widths.clone();
    }

    public int batch() {
        return batch;
    }

    /** One training step: forward, backward, AdamW. Returns the loss before the update. */
    @Override
    public double step() {
        double loss = forward();
        backward();
        optimizer();
        return loss;
    }

    /** Mean cross-entropy of the batch at the current parameters (a forward pass only). */
    public double loss() {
        return forward();
    }

    /** Zeroes the gradients and accumulates one batch's: what {@link #gradients} then holds. */
    void computeGradients() {
        Arrays.fill(gradients, 0f);
        forward();
        backward();
    }

    float[] parameters() {
        return parameters;
    }

    float[] gradients() {
        return gradients;
    }

    /** Records the time of every phase under the model's operation names from now on (see {@link #phaseNanos}). */
    @Override
    public void timePhases(boolean on) {
        workers.timePhases(on);
    }

    /** Nanoseconds per operation since {@link #timePhases} started, summed over the steps. */
    @Override
    public Map<String, Long> phaseNanos() {
        return workers.phaseNanos();
    }

    private double forward() {
        int layers = widths.length - 1;
        for (int i = 0; i < layers; i++) {
            int in = widths[i];
            int out = widths[i + 1];
            View x = View.of(i == 0 ? input : a[i - 1], in);
            View w = new View(parameters, weightOffsets[i], out);
            float[] zi = z[i];
            float[] ai = a[i];
            String name = "linear " + (i + 1);
            workers.forRange(name, batch, Matmul.ROWS_PER_TILE, (t, from, to) -> {
                if (vector) {
                    Matmul.multiply(x, w, View.of(zi, out), from, to, out, in, false);
                } else {
                    Matmul.multiplyScalar(x, w, View.of(zi, out), from, to, out, in, false);
                }
            });
            if (i < layers - 1) {
                workers.forRange(name + " relu", batch, 1, (t, from, to) -> {
                    if (vector) {
                        Elementwise.relu(zi, from * out, ai, from * out, (to - from) * out);
                    } else {
                        Elementwise.reluScalar(zi, from * out, ai, from * out, (to - from) * out);
                    }
                });
            } else {
                Arrays.fill(partials, 0);
                workers.forRange(name + " loss", batch, 1, (t, from, to) -> {
                    double sum = 0;
                    for (int r = from; r < to; r++) {
                        sum += vector ? Elementwise.softmaxCrossEntropy(zi, r * out, ai, r * out, out, labels[r])
                                : Elementwise.softmaxCrossEntropyScalar(zi, r * out, ai, r * out, out, labels[r]);
                    }
                    partials[t] = sum;
                });
            }
        }
        double total = 0;
        for (double partial : partials) {
            total += partial;
        }
        return total / batch;
    }

    private void backward() {
        int layers = widths.length - 1;
        int classes = widths[layers];
        float[] probabilities = a[layers - 1];
        float scale = 1f / batch;
        String last = "linear " + layers;
        workers.forRange(last + " loss backward", batch, 1, (t, from, to) -> {
            for (int r = from; r < to; r++) {
                if (vector) {
                    Elementwise.crossEntropyBackward(probabilities, r * classes, dz, r * classes, classes, labels[r], scale);
                } else {
                    Elementwise.crossEntropyBackwardScalar(probabilities, r * classes, dz, r * classes, classes, labels[r],
                            scale);
                }
            }
        });
        for (int i = layers - 1; i >= 0; i--) {
            int in = widths[i];
            int out = widths[i + 1];
            View x = View.of(i == 0 ? input : a[i - 1], in);
            View dZ = View.of(dz, out);
            View w = new View(parameters, weightOffsets[i], out);
            View dW = new View(gradients, weightOffsets[i], out);
            String name = "linear " + (i + 1);
            workers.forRange(name + " weight gradient", in, Matmul.ROWS_PER_TILE, (t, from, to) -> {
                if (vector) {
                    Matmul.multiplyTransposedA(x, dZ, dW, from, to, out, batch, true);
                } else {
                    Matmul.multiplyTransposedAScalar(x, dZ, dW, from, to, out, batch, true);
                }
            });
            if (i == 0) {
                break;
            }
            workers.forRange(name + " input gradient", batch, Matmul.ROWS_PER_TILE, (t, from, to) -> {
                if (vector) {
                    Matmul.multiplyTransposedB(dZ, w, View.of(da, in), from, to, in, out, false);
                } else {
                    Matmul.multiplyTransposedBScalar(dZ, w, View.of(da, in), from, to, in, out, false);
                }
            });
            float[] below = a[i - 1];
            workers.forRange("linear " + i + " relu backward", batch, 1, (t, from, to) -> {
                if (vector) {
                    Elementwise.reluBackward(da, from * in, below, from * in, dz, from * in, (to - from) * in);
                } else {
                    Elementwise.reluBackwardScalar(da, from * in, below, from * in, dz, from * in, (to - from) * in);
                }
            });
        }
    }

    private void optimizer() {
        int count = parameters.length;
        int grain = Elementwise.SPECIES.length();
        workers.forRange("gradient norm (clipping)", count, grain, (t, from, to) ->
                partials[t] = vector ? AdamW.sumOfSquares(gradients, from, to) : AdamW.sumOfSquaresScalar(gradients, from, to));
        double sum = 0;
        for (int t = 0; t < partials.length; t++) {
            sum += partials[t];
            partials[t] = 0;
        }
        AdamW.Update update = AdamW.Update.of(settings, ++step, Math.sqrt(sum));
        workers.forRange("optimizer update (adamw)", count, grain, (t, from, to) -> {
            if (vector) {
                AdamW.update(parameters, gradients, m, v, from, to, update);
            } else {
                AdamW.updateScalar(parameters, gradients, m, v, from, to, update);
            }
        });
        workers.forRange("zero gradients", count, grain, (t, from, to) -> {
            if (vector) {
                AdamW.zero(gradients, from, to);
            } else {
                AdamW.zeroScalar(gradients, from, to);
            }
        });
    }

    /** FLOPs of the products of one step (forward, weight and input gradients): what the model counts. */
    public double productFlops() {
        double flops = 0;
        for (int i = 0; i < widths.length - 1; i++) {
            flops += (i == 0 ? 2 : 3) * Matmul.flops(batch, widths[i + 1], widths[i]);
        }
        return flops;
    }

    /** The operation names a step records, in order. */
    List<String> phaseNames() {
        return List.copyOf(workers.phaseNanos().keySet());
    }

    @Override
    public void close() {
        workers.close();
    }
}
