package membound.benchmarks.training;

import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;

import membound.benchmarks.compute.Elementwise;
import membound.benchmarks.compute.Matmul;
import membound.benchmarks.compute.Matmul.View;

/**
 * Workload 3: training steps of a one-layer transformer language model in FP32 on one fixed batch of token
 * sequences: token embedding plus learned positions; one pre-norm block (RMSNorm, fused QKV projection,
 * causal multi-head attention with the scores materialized, output projection, residual add, RMSNorm, GELU
 * MLP, residual add); final RMSNorm, output layer, softmax cross-entropy against the next token; then AdamW
 * with gradient-norm clipping over all parameters. Plain Java; {@link TransformerBenchmark} times it.
 *
 * <p>Each operation is one phase over the whole batch, its rows (tokens) or its (sequence, head) pairs split
 * over the threads, as a framework launches one kernel per operation: the products run on {@link Matmul}
 * (the kernel of the calibrated GEMM), the rest are {@link Elementwise} passes. Attention is the eager kind
 * (Q·Kᵀ for every key, a causal softmax that zeroes the masked half, P·V), so every score is written and
 * read back: a mix of compute-bound products and memory-bound passes, which is what this workload is for.
 * The operations and their names are those of the model's {@code TransformerPass} with FlashAttention off.
 */
public final class TransformerTraining implements TrainingWorkload {

    static final float NORM_EPSILON = 1e-5f;

    private final TransformerShape shape;
    private final AdamWSettings settings;
    private final boolean vector;
    private final Workers workers;

    // parameter layout (offsets into the flat arrays)
    private final int embedding;
    private final int positions;
    private final int norm1;
    private final int qkvWeights;
    private final int outputWeights;
    private final int norm2;
    private final int upWeights;
    private final int downWeights;
    private final int finalNorm;
    private final int headWeights;
    private final float[] parameters;
    private final float[] gradients;
    private final float[] m;
    private final float[] v;

    private final int[] tokens;
    private final int[] targets;

    // activations, rows × width
    private final float[] x0;
    private final float[] n1;
    private final float[] rstd1;
    private final float[] qkv;
    private final float[] scores;
    private final float[] attended;
    private final float[] projected;
    private final float[] x1;
    private final float[] n2;
    private final float[] rstd2;
    private final float[] up;
    private final float[] activated;
    private final float[] down;
    private final float[] x2;
    private final float[] nf;
    private final float[] rstdF;
    private final float[] logits;
    private final float[] probabilities;

    // gradients of activations
    private final float[] dLogits;
    private final float[] dHidden;
    private final float[] dHidden2;
    private final float[] dHidden3;
    private final float[] dWide;
    private final float[] dScores;
    private final float[] dQkv;
    private final float[] gammaPartials;
    private final double[] partials;
    private long step;

    public TransformerTraining(TransformerShape shape, int threads, AdamWSettings settings, long seed, boolean vector) {
        this.shape = shape;
        this.settings = settings;
        this.vector = vector;
        this.workers = new Workers(threads);
        int h = shape.hidden();
        int f = shape.intermediate();
        int vocabulary = shape.vocabulary();
        int rows = shape.rows();
        int offset = 0;
        embedding = offset;
        offset += vocabulary * h;
        positions = offset;
        offset += shape.sequence() * h;
        norm1 = offset;
        offset += h;
        qkvWeights = offset;
        offset += 3 * h * h;
        outputWeights = offset;
        offset += h * h;
        norm2 = offset;
        offset += h;
        upWeights = offset;
        offset += h * f;
        downWeights = offset;
        offset += f * h;
        finalNorm = offset;
        offset += h;
        headWeights = offset;
        offset += h * vocabulary;
        if (offset != shape.parameters()) {
            throw new IllegalStateException("parameter layout " + offset + " != shape's count " + shape.parameters());
        }
        parameters = new float[offset];
        gradients = new float[offset];
        m = new float[offset];
        v = new float[offset];

        // GPT-2's initialization: N(0, 0.02), projections into the residual stream scaled by 1/sqrt(2 layers).
        SplittableRandom random = new SplittableRandom(seed);
        gaussian(random, embedding, headWeights + h * vocabulary, 0.02);
        gaussian(random, outputWeights, outputWeights + h * h, 0.02 / Math.sqrt(2));
        gaussian(random, downWeights, downWeights + f * h, 0.02 / Math.sqrt(2));
        Arrays.fill(parameters, norm1, norm1 + h, 1f);
        Arrays.fill(parameters, norm2, norm2 + h, 1f);
        Arrays.fill(parameters, finalNorm, finalNorm + h, 1f);

        // A fixed batch of random sequences; the target of each token is the next one.
        tokens = new int[rows];
        targets = new int[rows];
        for (int b = 0; b < shape.batch(); b++) {
            int previous = random.nextInt(vocabulary);
            for (int t = 0; t < shape.sequence(); t++) {
                int next = random.nextInt(vocabulary);
                tokens[b * shape.sequence() + t] = previous;
                targets[b * shape.sequence() + t] = next;
                previous = next;
            }
        }

        int pairs = shape.batch() * shape.heads();
        int scoreCount = pairs * shape.sequence() * shape.sequence();
        x0 = new float[rows * h];
        n1 = new float[rows * h];
        rstd1 = new float[rows];
        qkv = new float[rows * 3 * h];
        scores = new float[scoreCount];
        attended = new float[rows * h];
        projected = new float[rows * h];
        x1 = new float[rows * h];
        n2 = new float[rows * h];
        rstd2 = new float[rows];
        up = new float[rows * f];
        activated = new float[rows * f];
        down = new float[rows * h];
        x2 = new float[rows * h];
        nf = new float[rows * h];
        rstdF = new float[rows];
        logits = new float[rows * vocabulary];
        probabilities = new float[rows * vocabulary];
        dLogits = new float[rows * vocabulary];
        dHidden = new float[rows * h];
        dHidden2 = new float[rows * h];
        dHidden3 = new float[rows * h];
        dWide = new float[rows * Math.max(f, h)];
        dScores = new float[scoreCount];
        dQkv = new float[rows * 3 * h];
        gammaPartials = new float[workers.threads() * h];
        partials = new double[workers.threads()];
    }

    /**
     * Heap a training of this shape holds: parameters, gradients and two moments; per token the activations
     * and their gradients (16 of hidden width, 3 of the QKV width, 3 of the MLP width, 3 of the vocabulary); the
     * attention scores and their gradients; all FP32.
     */
    public static long footprintBytes(TransformerShape shape) {
        long rows = shape.rows();
        long perToken = 16L * shape.hidden() + 6L * shape.hidden() + 3L * shape.intermediate() + 3L * shape.vocabulary();
        long scores = 2L * shape.batch() * shape.heads() * shape.sequence() * shape.sequence();
        return Float.BYTES * (4 * shape.parameters() + rows * perToken + scores);
    }

    public TransformerShape shape() {
        return shape;
    }

    public long parameterCount() {
        return parameters.length;
    }

    /** One training step: forward, backward, AdamW. Returns the loss before the update. */
    @Override
    public double step() {
        double loss = forward();
        backward();
        optimizer();
        return loss;
    }

    /** Mean next-token cross-entropy of the batch at the current parameters (a forward pass only). */
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

    /** Records the time of every phase under the model's operation names from now on. */
    @Override
    public void timePhases(boolean on) {
        workers.timePhases(on);
    }

    /** Nanoseconds per operation since {@link #timePhases} started, summed over the steps. */
    @Override
    public Map<String, Long> phaseNanos() {
        return workers.phaseNanos();
    }

    // ---- forward ----

    private double forward() {
        int h = shape.hidden();
        int f = shape.intermediate();
        int s = shape.sequence();
        int rows = shape.rows();
        int vocabulary = shape.vocabulary();
        workers.forRange("embedding lookup", rows, 1, (t, from, to) -> {
            for (int r = from; r < to; r++) {
                System.arraycopy(parameters, embedding + tokens[r] * h, x0, r * h, h);
            }
        });
        workers.forRange("position embedding add", rows, 1, (t, from, to) -> {
            for (int r = from; r < to; r++) {
                add(x0, r * h, parameters, positions + (r % s) * h, x0, r * h, h);
            }
        });
        norm("attention norm", x0, norm1, n1, rstd1);
        linear("qkv projection", n1, h, qkvWeights, 3 * h, qkv);
        attention();
        linear("attention output projection", attended, h, outputWeights, h, projected);
        residual("attention residual add", x0, projected, x1);
        norm("mlp norm", x1, norm2, n2, rstd2);
        linear("mlp up projection", n2, h, upWeights, f, up);
        workers.forRange("gelu", rows, 1, (t, from, to) -> {
            if (vector) {
                Elementwise.gelu(up, from * f, activated, from * f, (to - from) * f);
            } else {
                Elementwise.geluScalar(up, from * f, activated, from * f, (to - from) * f);
            }
        });
        linear("mlp down projection", activated, f, downWeights, h, down);
        residual("mlp residual add", x1, down, x2);
        norm("final norm", x2, finalNorm, nf, rstdF);
        linear("output projection (LM head)", nf, h, headWeights, vocabulary, logits);
        Arrays.fill(partials, 0);
        workers.forRange("cross-entropy loss", rows, 1, (t, from, to) -> {
            double sum = 0;
            for (int r = from; r < to; r++) {
                sum += vector
                        ? Elementwise.softmaxCrossEntropy(logits, r * vocabulary, probabilities, r * vocabulary, vocabulary,
                                targets[r])
                        : Elementwise.softmaxCrossEntropyScalar(logits, r * vocabulary, probabilities, r * vocabulary,
                                vocabulary, targets[r]);
            }
            partials[t] = sum;
        });
        double total = 0;
        for (double partial : partials) {
            total += partial;
        }
        return total / rows;
    }

    /** Causal multi-head attention, each (sequence, head) pair on one thread, in three phases. */
    private void attention() {
        int h = shape.hidden();
        int d = shape.headDimension();
        int s = shape.sequence();
        int pairs = shape.batch() * shape.heads();
        float scale = (float) (1 / Math.sqrt(d));
        workers.forRange("attention scores (QK^T)", pairs, 1, (t, from, to) -> {
            for (int pair = from; pair < to; pair++) {
                product(Kind.A_BT, query(pair), key(pair), scoreView(scores, pair), 0, s, s, d, false);
            }
        });
        workers.forRange("attention softmax", pairs, 1, (t, from, to) -> {
            for (int pair = from; pair < to; pair++) {
                for (int i = 0; i < s; i++) {
                    int row = (pair * s + i) * s;
                    if (vector) {
                        Elementwise.causalSoftmax(scores, row, s, i + 1, scale);
                    } else {
                        Elementwise.causalSoftmaxScalar(scores, row, s, i + 1, scale);
                    }
                }
            }
        });
        workers.forRange("attention over values (PV)", pairs, 1, (t, from, to) -> {
            for (int pair = from; pair < to; pair++) {
                product(Kind.A_B, scoreView(scores, pair), value(pair), headView(attended, h, pair), 0, s, d, s, false);
            }
        });
    }

    // ---- backward ----

    private void backward() {
        int h = shape.hidden();
        int f = shape.intermediate();
        int rows = shape.rows();
        int vocabulary = shape.vocabulary();
        float scale = 1f / rows;
        workers.forRange("cross-entropy loss backward", rows, 1, (t, from, to) -> {
            for (int r = from; r < to; r++) {
                if (vector) {
                    Elementwise.crossEntropyBackward(probabilities, r * vocabulary, dLogits, r * vocabulary, vocabulary,
                            targets[r], scale);
                } else {
                    Elementwise.crossEntropyBackwardScalar(probabilities, r * vocabulary, dLogits, r * vocabulary,
                            vocabulary, targets[r], scale);
                }
            }
        });
        // dHidden: gradient at the final norm's output, then at its input x2.
        linearBackward("output projection (LM head)", nf, h, headWeights, vocabulary, dLogits, dHidden);
        normBackward("final norm", dHidden, x2, finalNorm, rstdF, dHidden2);
        float[] dx2 = dHidden2;
        linearBackward("mlp down projection", activated, f, downWeights, h, dx2, dWide);
        workers.forRange("gelu backward", rows, 1, (t, from, to) -> {
            if (vector) {
                Elementwise.geluBackward(dWide, from * f, up, from * f, dWide, from * f, (to - from) * f);
            } else {
                Elementwise.geluBackwardScalar(dWide, from * f, up, from * f, dWide, from * f, (to - from) * f);
            }
        });
        linearBackward("mlp up projection", n2, h, upWeights, f, dWide, dHidden);
        normBackward("mlp norm", dHidden, x1, norm2, rstd2, dHidden3);
        // Both paths into x1 (the residual and the MLP branch) join.
        residual("mlp residual add backward", dx2, dHidden3, dHidden);
        float[] dx1 = dHidden;
        linearBackward("attention output projection", attended, h, outputWeights, h, dx1, dHidden2);
        attentionBackward(dHidden2);
        linearBackward("qkv projection", n1, h, qkvWeights, 3 * h, dQkv, dHidden2);
        normBackward("attention norm", dHidden2, x0, norm1, rstd1, dHidden3);
        residual("attention residual add backward", dx1, dHidden3, dHidden2);
        float[] dx0 = dHidden2;
        int s = shape.sequence();
        workers.forRange("position embedding gradient", s, 1, (t, from, to) -> {
            for (int p = from; p < to; p++) {
                for (int b = 0; b < shape.batch(); b++) {
                    add(gradients, positions + p * h, dx0, (b * s + p) * h, gradients, positions + p * h, h);
                }
            }
        });
        // Each thread owns a range of token ids, so no two threads add into the same row of the table.
        workers.forRange("embedding gradient (scatter-add)", vocabulary, 1, (t, from, to) -> {
            for (int r = 0; r < rows; r++) {
                int token = tokens[r];
                if (token >= from && token < to) {
                    add(gradients, embedding + token * h, dx0, r * h, gradients, embedding + token * h, h);
                }
            }
        });
    }

    private void attentionBackward(float[] dAttended) {
        int h = shape.hidden();
        int d = shape.headDimension();
        int s = shape.sequence();
        int pairs = shape.batch() * shape.heads();
        float scale = (float) (1 / Math.sqrt(d));
        workers.forRange("attention PV backward", pairs, 1, (t, from, to) -> {
            for (int pair = from; pair < to; pair++) {
                View dO = headView(dAttended, h, pair);
                product(Kind.A_BT, dO, value(pair), scoreView(dScores, pair), 0, s, s, d, false);
                product(Kind.AT_B, scoreView(scores, pair), dO, gradientView(pair, 2), 0, s, d, s, false);
            }
        });
        workers.forRange("attention softmax backward", pairs, 1, (t, from, to) -> {
            for (int pair = from; pair < to; pair++) {
                for (int i = 0; i < s; i++) {
                    int row = (pair * s + i) * s;
                    if (vector) {
                        Elementwise.softmaxBackward(scores, row, dScores, row, s, scale);
                    } else {
                        Elementwise.softmaxBackwardScalar(scores, row, dScores, row, s, scale);
                    }
                }
            }
        });
        workers.forRange("attention QK^T backward", pairs, 1, (t, from, to) -> {
            for (int pair = from; pair < to; pair++) {
                View dS = scoreView(dScores, pair);
                product(Kind.A_B, dS, key(pair), gradientView(pair, 0), 0, s, d, s, false);
                product(Kind.AT_B, dS, query(pair), gradientView(pair, 1), 0, s, d, s, false);
            }
        });
    }

    // ---- optimizer ----

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

    // ---- building blocks ----

    /** {@code out = in · W} (rows × inWidth by inWidth × outWidth), rows split over the threads. */
    private void linear(String name, float[] in, int inWidth, int weights, int outWidth, float[] out) {
        View x = View.of(in, inWidth);
        View w = new View(parameters, weights, outWidth);
        View y = View.of(out, outWidth);
        workers.forRange(name, shape.rows(), Matmul.ROWS_PER_TILE, (t, from, to) ->
                product(Kind.A_B, x, w, y, from, to, outWidth, inWidth, false));
    }

    /** The weight gradient {@code dW += inᵀ·dOut} and the input gradient {@code dIn = dOut·Wᵀ}. */
    private void linearBackward(String name, float[] in, int inWidth, int weights, int outWidth, float[] dOut,
            float[] dIn) {
        View x = View.of(in, inWidth);
        View dy = View.of(dOut, outWidth);
        View w = new View(parameters, weights, outWidth);
        View dw = new View(gradients, weights, outWidth);
        workers.forRange(name + " input gradient", shape.rows(), Matmul.ROWS_PER_TILE, (t, from, to) ->
                product(Kind.A_BT, dy, w, View.of(dIn, inWidth), from, to, inWidth, outWidth, false));
        workers.forRange(name + " weight gradient", inWidth, Matmul.ROWS_PER_TILE, (t, from, to) ->
                product(Kind.AT_B, x, dy, dw, from, to, outWidth, shape.rows(), true));
    }

    private void norm(String name, float[] in, int gamma, float[] out, float[] rstd) {
        int h = shape.hidden();
        workers.forRange(name, shape.rows(), 1, (t, from, to) -> {
            for (int r = from; r < to; r++) {
                rstd[r] = vector ? Elementwise.rmsNorm(in, r * h, parameters, gamma, out, r * h, h, NORM_EPSILON)
                        : Elementwise.rmsNormScalar(in, r * h, parameters, gamma, out, r * h, h, NORM_EPSILON);
            }
        });
    }

    /** The gradient through a norm: each thread adds its rows' γ gradient into its own partial, then they join. */
    private void normBackward(String name, float[] dOut, float[] in, int gamma, float[] rstd, float[] dIn) {
        int h = shape.hidden();
        String phase = name + " backward";
        Arrays.fill(gammaPartials, 0f);
        workers.forRange(phase, shape.rows(), 1, (t, from, to) -> {
            for (int r = from; r < to; r++) {
                if (vector) {
                    Elementwise.rmsNormBackward(dOut, r * h, in, r * h, parameters, gamma, rstd[r], dIn, r * h,
                            gammaPartials, t * h, h);
                } else {
                    Elementwise.rmsNormBackwardScalar(dOut, r * h, in, r * h, parameters, gamma, rstd[r], dIn, r * h,
                            gammaPartials, t * h, h);
                }
            }
        });
        workers.serial(phase, () -> {
            for (int t = 0; t < workers.threads(); t++) {
                add(gradients, gamma, gammaPartials, t * h, gradients, gamma, h);
            }
        });
    }

    private void residual(String name, float[] a, float[] b, float[] out) {
        int h = shape.hidden();
        workers.forRange(name, shape.rows(), 1, (t, from, to) ->
                add(a, from * h, b, from * h, out, from * h, (to - from) * h));
    }

    private void add(float[] a, int aOffset, float[] b, int bOffset, float[] c, int cOffset, int n) {
        if (vector) {
            Elementwise.add(a, aOffset, b, bOffset, c, cOffset, n);
        } else {
            Elementwise.addScalar(a, aOffset, b, bOffset, c, cOffset, n);
        }
    }

    private enum Kind { A_B, A_BT, AT_B }

    private void product(Kind kind, View a, View b, View c, int rowFrom, int rowTo, int n, int k, boolean accumulate) {
        switch (kind) {
            case A_B -> {
                if (vector) {
                    Matmul.multiply(a, b, c, rowFrom, rowTo, n, k, accumulate);
                } else {
                    Matmul.multiplyScalar(a, b, c, rowFrom, rowTo, n, k, accumulate);
                }
            }
            case A_BT -> {
                if (vector) {
                    Matmul.multiplyTransposedB(a, b, c, rowFrom, rowTo, n, k, accumulate);
                } else {
                    Matmul.multiplyTransposedBScalar(a, b, c, rowFrom, rowTo, n, k, accumulate);
                }
            }
            case AT_B -> {
                if (vector) {
                    Matmul.multiplyTransposedA(a, b, c, rowFrom, rowTo, n, k, accumulate);
                } else {
                    Matmul.multiplyTransposedAScalar(a, b, c, rowFrom, rowTo, n, k, accumulate);
                }
            }
        }
    }

    /** Head {@code pair % heads} of sequence {@code pair / heads}: a sequence × headDimension block of Q, K or V. */
    private View qkvView(float[] data, int pair, int part) {
        int h = shape.hidden();
        int sequence = pair / shape.heads();
        int head = pair % shape.heads();
        return new View(data, sequence * shape.sequence() * 3 * h + part * h + head * shape.headDimension(), 3 * h);
    }

    private View query(int pair) {
        return qkvView(qkv, pair, 0);
    }

    private View key(int pair) {
        return qkvView(qkv, pair, 1);
    }

    private View value(int pair) {
        return qkvView(qkv, pair, 2);
    }

    private View gradientView(int pair, int part) {
        return qkvView(dQkv, pair, part);
    }

    private View headView(float[] data, int h, int pair) {
        int sequence = pair / shape.heads();
        int head = pair % shape.heads();
        return new View(data, sequence * shape.sequence() * h + head * shape.headDimension(), h);
    }

    private View scoreView(float[] data, int pair) {
        int s = shape.sequence();
        return new View(data, pair * s * s, s);
    }

    private void gaussian(SplittableRandom random, int from, int to, double std) {
        for (int i = from; i < to; i++) {
            parameters[i] = (float) (random.nextGaussian() * std);
        }
    }

    @Override
    public void close() {
        workers.close();
    }
}
