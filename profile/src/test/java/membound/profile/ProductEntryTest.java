package membound.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;
import membound.vocabulary.ProductShape;

/** A compute entry of kind product: its shape is written and read back, and required for a product only. */
class ProductEntryTest {

    static ComputeEntry product(ProductShape shape) {
        return new ComputeEntry("product-float-2t-256x1024x1024-tn", ComputeEntry.Kind.PRODUCT, Precision.FP32, 2, null,
                shape, Distribution.single(1.5e11), Provenance.measured("ProductBenchmark", null, Map.of()));
    }

    @Test
    void shouldWriteAndReadAProductsShape() throws IOException {
        Profile example = ProfileJson.read(ProfileJsonTest.EXAMPLE);
        Device cpu = example.device("cpu").orElseThrow();
        List<ComputeEntry> compute = new ArrayList<>(cpu.compute());
        compute.add(product(new ProductShape(256, 1024, 1024, ProductShape.Layout.TN)));
        Profile with = example.withDevice(cpu.withCompute(compute));
        String json = new String(ProfileJson.toBytes(with), StandardCharsets.UTF_8);
        assertTrue(json.contains("\"kind\" : \"product\"") || json.contains("\"kind\": \"product\""), json);
        Profile read = ProfileJson.read(json.getBytes(StandardCharsets.UTF_8), "with a product");
        ComputeEntry entry = read.device("cpu").orElseThrow().compute().stream()
                .filter(c -> c.kind() == ComputeEntry.Kind.PRODUCT).findFirst().orElseThrow();
        assertEquals(new ProductShape(256, 1024, 1024, ProductShape.Layout.TN), entry.shape());
        assertEquals(with, read);
    }

    @Test
    void shouldRequireAShapeForAProductAndOnlyForOne() {
        BadInputException missing = assertThrows(BadInputException.class, () -> product(null));
        assertTrue(missing.getMessage().startsWith("compute.shape must be"), missing.getMessage());
        BadInputException extra = assertThrows(BadInputException.class, () -> new ComputeEntry("gemm-float-2t-n1024",
                ComputeEntry.Kind.GEMM, Precision.FP32, 2, 1024L,
                new ProductShape(1, 1, 1, ProductShape.Layout.NN), Distribution.single(1e11),
                Provenance.measured("GemmBenchmark", null, Map.of())));
        assertTrue(extra.getMessage().contains("gemm-float-2t-n1024"), extra.getMessage());
        assertThrows(BadInputException.class, () -> new ProductShape(0, 1, 1, ProductShape.Layout.NN));
        BadInputException layout = assertThrows(BadInputException.class, () -> ProductShape.Layout.ofLabel("nx"));
        assertTrue(layout.getMessage().contains("compute.shape.layout"), layout.getMessage());
    }
}
