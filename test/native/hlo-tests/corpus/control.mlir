module {
  func.func public @main(%x: tensor<f32>, %v: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<i32>, tensor<f32>, tensor<f32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%iterArg = %c0, %iterArg_0 = %x) : tensor<i32>, tensor<f32>
     cond {
      %c = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare  LT, %iterArg, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %c = stablehlo.constant dense<1> : tensor<i32>
      %ii = stablehlo.add %iterArg, %c : tensor<i32>
      %y = stablehlo.multiply %iterArg_0, %iterArg_0 : tensor<f32>
      stablehlo.return %ii, %y : tensor<i32>, tensor<f32>
    }
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %m:2 = stablehlo.reduce(%v init: %ninf), (%i init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
     reducer(%l0: tensor<f32>, %r0: tensor<f32>) (%l1: tensor<i32>, %r1: tensor<i32>)  {
      %gt = stablehlo.compare  GT, %r0, %l0,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %mm = stablehlo.select %gt, %r0, %l0 : tensor<i1>, tensor<f32>
      %k = stablehlo.select %gt, %r1, %l1 : tensor<i1>, tensor<i32>
      stablehlo.return %mm, %k : tensor<f32>, tensor<i32>
    }
    %s = stablehlo.reduce(%v init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %q = "stablehlo.case"(%m#1) ({
      %n = stablehlo.negate %x : tensor<f32>
      stablehlo.return %n : tensor<f32>
    }, {
      stablehlo.return %s : tensor<f32>
    }) : (tensor<i32>) -> tensor<f32>
    return %r#0, %r#1, %q : tensor<i32>, tensor<f32>, tensor<f32>
  }
}
