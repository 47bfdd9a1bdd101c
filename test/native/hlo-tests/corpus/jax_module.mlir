#loc1 = loc("x.py":1:2)
module @jit_scale attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32> {jax.buffer_donor = true} loc("x"), %arg1: tensor<f32>) -> (tensor<2x3xf32> {jax.result_info = "result"}) {
    %0 = call @helper(%arg1) : (tensor<f32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x3xf32> loc(#loc1)
    %2 = stablehlo.multiply %arg0, %1 : tensor<2x3xf32>
    %3 = stablehlo.transpose %2, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %4 = stablehlo.reshape %3 : (tensor<3x2xf32>) -> tensor<2x3xf32>
    %5 = stablehlo.slice %4 [0:2, 0:3:2] : (tensor<2x3xf32>) -> tensor<2x2xf32>
    %6 = stablehlo.pad %5, %arg1, low = [1, 0], high = [-1, 1], interior = [0, 1] : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x4xf32>
    %7 = stablehlo.compare  LT, %arg0, %arg0,  FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %8 = stablehlo.select %7, %arg0, %2 : tensor<2x3xi1>, tensor<2x3xf32>
    return %8 : tensor<2x3xf32>
  } loc(#loc)
  func.func private @helper(%arg0: tensor<f32>) -> tensor<f32> {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
    %h = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
    %0 = "stablehlo.add"(%arg0, %cst) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
} loc(#loc)
#loc = loc(unknown)
